import type { Hono } from 'hono'
import { importFlowRequestSchema, type PublicFlowResponse, type PublishedFlowResponse, updateFlowRequestSchema } from '../../protocol/index'
import { FLOW_STANDING_CHANGES, publishRequestSchema, replaceFlowRequestSchema } from '../../protocol/management'
import type { AppContext } from '../context'
import { toFlow, withMigratedVersion } from '../flows/flow-document'
import { migrateImportBody } from '../flows/flow-migration'
import { flowNotFound, importFlow, publishFlow, replaceFlow, updateFlow } from '../flows/flow-service'
import { changeFlowStanding, listFlows } from '../flows/flow-summaries'
import { toFlowVersion } from '../flows/flow-versions'
import { findLiveFlow, flowRefused } from '../flows/live-flow'
import { toPublicFlow } from '../flows/public-flow'
import { authenticate, type Caller } from '../http/auth'
import { bodyReader } from '../http/body'
import { clientKey } from '../http/client-address'
import { PUBLISHED_FLOW_CORS, preflightResponse } from '../http/cors'
import { HttpError } from '../http/errors'
import { booleanQuery } from '../http/query'
import { isResourceRef } from '../ids'
import type { FlowRecord } from '../store/flows-repository'
import { secretCaller } from './secret-caller'

/** What the published-flow response calls its format version (flow-service.md, "Versioning"). */
export const PUBLISHED_FLOW_RESPONSE_VERSION = '3'

/**
 * The management API (secret tokens) and the published-flow read (secret: the whole snapshot;
 * publishable: its public projection).
 * `currentUserMode` is always "write": only the owning workspace's secret token gets this far.
 */
export function registerFlowRoutes(app: Hono, ctx: AppContext): void {
  const { store, config, limiters } = ctx

  const authorizeSecret = secretCaller(ctx)
  const readBody = bodyReader(config.bodyLimits.managementBytes)
  const ownedBy = (caller: Caller, ref: string) => (flow: FlowRecord) => assertVisible(caller, flow, ref)

  app.post('/v1/flows/import', async (c) => {
    const caller = await authorizeSecret(c)
    const body = await readBody(c, importFlowRequestSchema, { keys: ['workspaceId', 'flow'], prepare: migrateImportBody })
    if (body.workspaceId !== caller.workspaceId) {
      throw new HttpError('forbidden', "workspaceId must be the token's own workspace.")
    }
    const flow = await importFlow(store, { workspaceId: caller.workspaceId, flow: body.flow, now: ctx.now() })
    return c.json({ flow: toFlow(flow) })
  })

  app.get('/v1/flows', async (c) => {
    const caller = await authorizeSecret(c)
    return c.json({ flows: await listFlows(store, caller.workspaceId) })
  })

  app.get('/v1/flows/:flowId', async (c) => {
    const caller = await authorizeSecret(c)
    const migrate = booleanQuery(c, 'migrateToLatestVersion')
    const flow = await findOwnedFlow(c.req.param('flowId'), caller)
    return c.json({ flow: toFlow(flow, { migrateToLatestVersion: migrate }), currentUserMode: 'write' })
  })

  app.patch('/v1/flows/:flowId', async (c) => {
    const caller = await authorizeSecret(c)
    const flowId = requireRef(c.req.param('flowId'))
    const body = await readBody(c, updateFlowRequestSchema, { keys: ['flow'] })
    const flow = await updateFlow(store, { flowId, update: body.flow, now: ctx.now(), authorize: ownedBy(caller, flowId) })
    return c.json({ flow: toFlow(flow) })
  })

  // The whole flow from an export (a new version of the flow file), keeping its ids.
  app.put('/v1/flows/:flowId', async (c) => {
    const caller = await authorizeSecret(c)
    const flowId = requireRef(c.req.param('flowId'))
    const body = await readBody(c, replaceFlowRequestSchema, { keys: ['flow', 'updatedAt'], prepare: migrateImportBody })
    const flow = await replaceFlow(store, {
      flowId,
      flow: body.flow,
      updatedAt: body.updatedAt,
      now: ctx.now(),
      authorize: ownedBy(caller, flowId),
    })
    return c.json({ flow: toFlow(flow) })
  })

  for (const change of FLOW_STANDING_CHANGES) {
    app.post(`/v1/flows/:flowId/${change}`, async (c) => {
      const caller = await authorizeSecret(c)
      const flowId = requireRef(c.req.param('flowId'))
      return c.json({ flow: await changeFlowStanding(store, { flowId, change, now: ctx.now(), authorize: ownedBy(caller, flowId) }) })
    })
  }

  // The body is optional: `{ "note": "…" }` is kept with the new version.
  app.post('/v1/flows/:flowId/publish', async (c) => {
    const caller = await authorizeSecret(c)
    const flowId = requireRef(c.req.param('flowId'))
    const body = await readBody(c, publishRequestSchema, { keys: ['note'], absent: {} })
    const published = await publishFlow(store, {
      flowId,
      now: ctx.now(),
      authorize: ownedBy(caller, flowId),
      publishedBy: caller.name,
      note: body.note,
      keepVersions: config.keepVersions,
    })
    return c.json({ publishedFlow: published.snapshot, version: toFlowVersion(published, published.versionId) })
  })

  app.options('/v1/flows/:flowId/publishedFlow', (c) => preflightResponse(c, '*', PUBLISHED_FLOW_CORS))

  app.get('/v1/flows/:flowId/publishedFlow', async (c) => {
    // Open to every origin, errors included, so the widget can read what went wrong.
    c.header('Access-Control-Allow-Origin', '*')
    c.header('Access-Control-Expose-Headers', 'Retry-After')
    const caller = await authenticate(c, ctx.auth, ['secret', 'publishable'])
    // A publishable token is shared by every visitor of the pages embedding it: limit those
    // reads per visitor like chats, or one busy site would exhaust its own token.
    if (caller.kind === 'publishable') await limiters.chat.consume(`published:${clientKey(c, config.trustProxyHops)}`)
    else await limiters.management.consume(`token:${caller.tokenId}`)
    const migrate = booleanQuery(c, 'migrateToLatestVersion')
    const ref = c.req.param('flowId')
    // An archived flow is no longer live: nothing of it is served to pages (a closed one still is).
    const { flow, version: published } = await findLiveFlow(ctx, requireRef(ref), 'start', { withName: true })
    if (!flow) throw flowNotFound(ref)
    assertVisible(caller, flow, ref)
    // A closed flow is still read (the widget says it is closed); one never published is refused.
    if (!published) throw flowRefused('not_published', () => flowNotFound(ref))
    const snapshot = withMigratedVersion(published.snapshot, migrate)
    // A publishable token is in every page embedding the flow: it reads the public projection.
    const body: PublishedFlowResponse | PublicFlowResponse = {
      publishedFlow: caller.kind === 'publishable' ? toPublicFlow(snapshot, flow.name ?? '') : snapshot,
      version: PUBLISHED_FLOW_RESPONSE_VERSION,
    }
    return c.json(body)
  })

  async function findOwnedFlow(flowId: string, caller: Caller): Promise<FlowRecord> {
    const flow = await store.flows.findById(requireRef(flowId))
    if (!flow) throw flowNotFound(flowId)
    assertVisible(caller, flow, flowId)
    return flow
  }
}

/**
 * Another workspace's flow is answered exactly like one that does not exist (404, same body): a
 * 403 would confirm to any token holder that the id is in use.
 */
function assertVisible(caller: Caller, flow: Pick<FlowRecord, 'workspaceId'>, ref: string): void {
  if (flow.workspaceId !== caller.workspaceId) throw flowNotFound(ref)
}

function requireRef(flowId: string): string {
  if (!isResourceRef(flowId)) throw new HttpError('flow_not_found', 'No flow has this id.')
  return flowId
}
