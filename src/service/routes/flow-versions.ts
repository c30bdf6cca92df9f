import type { Context, Hono } from 'hono'
import { publishRequestSchema } from '../../protocol/management'
import type { AppContext } from '../context'
import { toFlow } from '../flows/flow-document'
import { flowNotFound } from '../flows/flow-service'
import { diffFlowVersions, getVersion, listVersions, parseVersionNumber, rollbackFlow, toFlowVersion } from '../flows/flow-versions'
import type { Caller } from '../http/auth'
import { bodyReader } from '../http/body'
import { isResourceRef } from '../ids'
import type { FlowRecord } from '../store/flows-repository'
import { secretCaller } from './secret-caller'

/**
 * A flow's published versions (secret token): the list, one version, the changes between two,
 * and a rollback (an old version published again as the newest).
 */
export function registerFlowVersionRoutes(app: Hono, ctx: AppContext): void {
  const { store, config } = ctx
  const authorize = secretCaller(ctx)
  const readBody = bodyReader(config.bodyLimits.managementBytes)

  const ownedFlow = async (c: Context): Promise<{ caller: Caller; flow: FlowRecord }> => {
    const caller = await authorize(c)
    const flowId = c.req.param('flowId') ?? ''
    const flow = isResourceRef(flowId) ? await store.flows.findById(flowId) : undefined
    // Another workspace's flow answers like an unknown one.
    if (!flow || flow.workspaceId !== caller.workspaceId) throw flowNotFound(flowId)
    return { caller, flow }
  }

  app.get('/v1/flows/:flowId/versions', async (c) => {
    const { flow } = await ownedFlow(c)
    return c.json({ versions: await listVersions(store, flow) })
  })

  // Before `/versions/:number`, which would read "diff" as a number.
  app.get('/v1/flows/:flowId/versions/diff', async (c) => {
    const { flow } = await ownedFlow(c)
    const from = parseVersionNumber(c.req.query('from'), 'from')
    const to = parseVersionNumber(c.req.query('to'), 'to')
    return c.json(await diffFlowVersions(store, flow, from, to))
  })

  app.get('/v1/flows/:flowId/versions/:number', async (c) => {
    const { flow } = await ownedFlow(c)
    return c.json(await getVersion(store, flow, parseVersionNumber(c.req.param('number'), 'number')))
  })

  app.post('/v1/flows/:flowId/versions/:number/rollback', async (c) => {
    const { caller, flow } = await ownedFlow(c)
    const number = parseVersionNumber(c.req.param('number'), 'number')
    const body = await readBody(c, publishRequestSchema, { keys: ['note'], absent: {} })
    const published = await rollbackFlow(store, {
      flowId: flow.id,
      number,
      now: ctx.now(),
      // The flow was read outside the rollback's transaction: its workspace is checked again under the lock.
      authorize: (locked) => {
        if (locked.workspaceId !== caller.workspaceId) throw flowNotFound(flow.id)
      },
      publishedBy: caller.name,
      note: body.note,
      keepVersions: config.keepVersions,
    })
    const restored = await store.flows.findById(flow.id)
    return c.json({
      version: toFlowVersion(published, published.versionId),
      publishedFlow: published.snapshot,
      ...(restored ? { flow: toFlow(restored) } : {}),
    })
  })
}
