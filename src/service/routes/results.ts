import type { Context, Hono } from 'hono'
import { MAX_OUTBOX_PAGE, type OutboxEmail } from '../../protocol/results'
import { isResourceRef, type AppContext } from '../context'
import { flowNotFound } from '../flows/flow-service'
import { assertSameWorkspace } from '../http/auth'
import { HttpError } from '../http/errors'
import { secretCaller } from './secret-caller'

/** Results of the caller's flows (secret token): stored logs, and the e-mail outbox. */
export function registerResultRoutes(app: Hono, ctx: AppContext): void {
  const { store } = ctx
  const caller = secretCaller(ctx)

  app.get('/v1/flows/:flowId/results/:resultId/logs', async (c) => {
    const who = await caller(c)
    const flowId = c.req.param('flowId')
    const flow = isResourceRef(flowId) ? await store.flows.findById(flowId) : undefined
    if (!flow) throw flowNotFound(flowId)
    assertSameWorkspace(who, flow.workspaceId)
    const resultId = c.req.param('resultId')
    const result = isResourceRef(resultId) ? await store.results.findForFlow(resultId, flow.id) : undefined
    if (!result) throw new HttpError('not_found', 'This flow has no result with this id.')
    return c.json({ logs: await store.resultLogs.list(result.id) })
  })

  app.get('/v1/outbox', async (c) => {
    const { workspaceId } = await caller(c)
    const entries = await store.outbox.list(workspaceId, pageSize(c))
    const emails: OutboxEmail[] = entries.map(({ workspaceId: _, ...email }) => email)
    return c.json({ emails })
  })
}

function pageSize(c: Context): number {
  const raw = c.req.query('limit')
  if (raw === undefined) return 50
  const limit = /^\d{1,4}$/.test(raw) ? Number(raw) : Number.NaN
  if (!(limit >= 1 && limit <= MAX_OUTBOX_PAGE)) {
    throw new HttpError('invalid_query', `limit must be a whole number from 1 to ${MAX_OUTBOX_PAGE}.`, [
      { path: 'limit', message: `Got ${JSON.stringify(raw)}` },
    ])
  }
  return limit
}
