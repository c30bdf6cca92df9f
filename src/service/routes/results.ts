import type { Context, Hono } from 'hono'
import { z } from 'zod/mini'
import { deleteResultsRequestSchema, MAX_OUTBOX_PAGE, type OutboxEmail } from '../../protocol/results'
import { deliverResultWebhook } from '../chat/webhook-service'
import type { AppContext } from '../context'
import { derivedKey } from '../credentials/credentials-key'
import { bodyReader } from '../http/body'
import { HttpError } from '../http/errors'
import { integerQuery } from '../http/query'
import { isResourceRef } from '../ids'
import { requestOf } from '../observability/request-context'
import { ResultCursors } from '../results/result-cursor'
import { uploadedFiles } from '../results/result-files'
import { readExportQuery, readListQuery } from '../results/result-query'
import { EXPORT_MEDIA_TYPES, exportResults } from '../results/results-export'
import { deleteResults, listResults, resultDetail, resultNotFound } from '../results/results-service'
import { ownedFlowFinder, secretCaller } from './secret-caller'

/**
 * Results of the caller's flows (secret token): pages of the results table, one result, exports,
 * deletes, stored logs, the result webhook, the e-mail outbox.
 */
export function registerResultRoutes(app: Hono, ctx: AppContext): void {
  const { store } = ctx
  const caller = secretCaller(ctx)
  const cursors = new ResultCursors(derivedKey(ctx.integrations.key, 'results cursors'), ctx.now)
  const readBody = bodyReader(ctx.config.bodyLimits.managementBytes)

  const ownedFlow = ownedFlowFinder(ctx)
  const resultFiles = uploadedFiles(store, ctx.integrations.files)

  /** The result the path names, of a flow of the caller's workspace. */
  const ownedResult = async (c: Context) => {
    const flow = await ownedFlow(c)
    const resultId = c.req.param('resultId') ?? ''
    const result = isResourceRef(resultId) ? await store.results.findForFlow(resultId, flow.id) : undefined
    if (!result) throw resultNotFound()
    return { flow, result }
  }

  app.get('/v1/flows/:flowId/results', async (c) => {
    const flow = await ownedFlow(c)
    return c.json(await listResults({ store, cursors }, flow, readListQuery(c.req.queries())))
  })

  // Before `/results/:resultId`, which would otherwise take `export` for an id.
  app.get('/v1/flows/:flowId/results/export', async (c) => {
    const flow = await ownedFlow(c)
    const request = readExportQuery(c.req.queries())
    const body = await exportResults(store, flow, request)
    c.header('Content-Type', EXPORT_MEDIA_TYPES[request.format])
    c.header('Content-Disposition', `attachment; filename="${flow.publicId}-results.${request.format}"`)
    return c.body(body)
  })

  app.post('/v1/flows/:flowId/results/delete', async (c) => {
    const flow = await ownedFlow(c)
    const body = await readBody(c, deleteResultsRequestSchema, { keys: ['resultIds', 'all'] })
    if ((body.resultIds == null) === (body.all == null)) {
      throw new HttpError('invalid_body', 'Give either resultIds or "all": true.', [
        { path: '', message: 'Expected exactly one of resultIds, all' },
      ])
    }
    const target = body.resultIds == null ? { all: true as const } : { resultIds: body.resultIds }
    return c.json({ deleted: await deleteResults(store, resultFiles, flow, target) })
  })

  app.get('/v1/flows/:flowId/results/:resultId', async (c) => {
    const flow = await ownedFlow(c)
    const resultId = c.req.param('resultId')
    if (!isResourceRef(resultId)) throw resultNotFound()
    return c.json(await resultDetail(store, flow, resultId))
  })

  app.delete('/v1/flows/:flowId/results/:resultId', async (c) => {
    const { flow, result } = await ownedResult(c)
    return c.json({ deleted: await deleteResults(store, resultFiles, flow, { resultIds: [result.id] }) })
  })

  app.get('/v1/flows/:flowId/results/:resultId/logs', async (c) => {
    const { result } = await ownedResult(c)
    return c.json({ logs: await store.resultLogs.list(result.id) })
  })

  // An outside system tells a waiting conversation to go on; its JSON body is the block's `data`.
  app.post('/v1/flows/:flowId/results/:resultId/webhook', async (c) => {
    const { result } = await ownedResult(c)
    const body = await readBody(c, anyJson, { absent: null })
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

/** A webhook's body is the flow's to read: any JSON (or none). */
const anyJson = z.unknown()
