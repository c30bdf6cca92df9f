import type { Hono } from 'hono'
import { eraseRequestSchema, retentionSettingSchema, visitorSelectorSchema } from '../../protocol/privacy'
import type { AppContext } from '../context'
import { bodyReader } from '../http/body'
import { integerQuery } from '../http/query'
import { serviceBase } from '../http/service-base'
import { RETENTION_JOB } from '../privacy/retention-job'
import { eraseVisitor, exportVisitor, readSelector } from '../privacy/visitor-data'
import { secretCaller } from './secret-caller'

const SELECTOR_KEYS = ['resultId', 'userId', 'variable', 'value'] as const

/**
 * A workspace's visitors' data (secret token): how long it is kept, erasing and exporting one
 * visitor's, and the audit of both. Every call works within the token's workspace only: a
 * selector never finds another workspace's results.
 */
export function registerPrivacyRoutes(app: Hono, ctx: AppContext): void {
  const { store } = ctx
  const caller = secretCaller(ctx)
  const readBody = bodyReader(ctx.config.bodyLimits.managementBytes)
  const files = ctx.integrations.files

  const retention = async (workspaceId: string) => {
    const progress = await store.jobLeases.progress(RETENTION_JOB)
    // When the job (one for every workspace) last ran; what it deleted of this workspace is in its audit.
    const lastRun =
      progress && typeof progress.startedAt === 'string' ? { startedAt: progress.startedAt, finishedAt: progress.finishedAt ?? null } : null
    return { retentionDays: await store.privacy.retentionDays(workspaceId), lastRun }
  }

  app.get('/v1/privacy/retention', async (c) => {
    const { workspaceId } = await caller(c)
    return c.json(await retention(workspaceId))
  })

  app.put('/v1/privacy/retention', async (c) => {
    const { workspaceId } = await caller(c)
    const body = await readBody(c, retentionSettingSchema, { keys: ['retentionDays'] })
    await store.privacy.setRetentionDays(workspaceId, body.retentionDays)
    return c.json(await retention(workspaceId))
  })

  app.post('/v1/privacy/erase', async (c) => {
    const who = await caller(c)
    const body = await readBody(c, eraseRequestSchema, { keys: [...SELECTOR_KEYS, 'dryRun'] })
    const erased = await eraseVisitor(
      { store, files, now: ctx.now() },
      {
        workspaceId: who.workspaceId,
        selector: readSelector(body),
        dryRun: body.dryRun === true,
        actor: { tokenId: who.tokenId, name: who.name },
      },
    )
    return c.json({ dryRun: body.dryRun === true, ...erased })
  })

  app.post('/v1/privacy/access', async (c) => {
    const who = await caller(c)
    const body = await readBody(c, visitorSelectorSchema, { keys: SELECTOR_KEYS })
    const exported = await exportVisitor(
      { store, files, now: ctx.now(), base: serviceBase(c, ctx.config.publicUrl) },
      { workspaceId: who.workspaceId, selector: readSelector(body), actor: { tokenId: who.tokenId, name: who.name } },
    )
    c.header('Content-Disposition', 'attachment; filename="visitor-data.json"')
    return c.json(exported)
  })

  app.get('/v1/privacy/audit', async (c) => {
    const { workspaceId } = await caller(c)
    const lines = await store.privacy.auditLines(workspaceId, integerQuery(c, 'limit', 100, 1, 1_000))
    return c.json({ audit: lines.map(({ tokenId: _, ...line }) => line) })
  })
}
