import type { Context, Hono } from 'hono'
import { MAX_OUTBOX_PAGE, type OutboxEmail } from '../../protocol/results'
import { deliverResultWebhook } from '../chat/webhook-service'
import type { AppContext } from '../context'
import { flowNotFound } from '../flows/flow-service'
import { readJsonBody } from '../http/body'
import { HttpError } from '../http/errors'
import { integerQuery } from '../http/query'
import { isResourceRef } from '../ids'
import { requestOf } from '../observability/request-context'
import { secretCaller } from './secret-caller'

/** Results of the caller's flows (secret token): stored logs, the result webhook, the e-mail outbox. */
export function registerResultRoutes(app: Hono, ctx: AppContext): void {
  const { store } = ctx
  const caller = secretCaller(ctx)

  /** The result the path names, of a flow of the caller's workspace. */
  const ownedResult = async (c: Context) => {
    const who = await caller(c)
    const flowId = c.req.param('flowId') ?? ''
    const flow = isResourceRef(flowId) ? await store.flows.findById(flowId) : undefined
    // Another workspace's flow answers like an unknown one.
    if (!flow || flow.workspaceId !== who.workspaceId) throw flowNotFound(flowId)
    const resultId = c.req.param('resultId') ?? ''
    const result = isResourceRef(resultId) ? await store.results.findForFlow(resultId, flow.id) : undefined
    if (!result) throw new HttpError('not_found', 'This flow has no result with this id.')
    return result
  }

  app.get('/v1/flows/:flowId/results/:resultId/logs', async (c) => {
    const result = await ownedResult(c)
    return c.json({ logs: await store.resultLogs.list(result.id) })
  })

  // An outside system tells a waiting conversation to go on; its JSON body is the block's `data`.
  app.post('/v1/flows/:flowId/results/:resultId/webhook', async (c) => {
    const result = await ownedResult(c)
    const body = await readJsonBody(c, { limitBytes: ctx.config.bodyLimits.managementBytes, optional: true })
    const delivered = await deliverResultWebhook(ctx, { resultId: result.id, body, request: requestOf(c) })
    return c.json({ status: 'continued', ...delivered })
  })

  app.get('/v1/outbox', async (c) => {
    const { workspaceId } = await caller(c)
    const entries = await store.outbox.list(workspaceId, integerQuery(c, 'limit', 50, 1, MAX_OUTBOX_PAGE))
    const emails: OutboxEmail[] = entries.map(({ workspaceId: _, ...email }) => email)
    return c.json({ emails })
  })
}
