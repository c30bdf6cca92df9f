import type { Hono } from 'hono'
import { MAX_DELIVERIES_PAGE, setWebhookRequestSchema } from '../../protocol/webhooks'
import type { AppContext } from '../context'
import { bodyReader } from '../http/body'
import { integerQuery } from '../http/query'
import { listDeliveries, readWebhook, removeWebhook, setWebhook } from '../webhooks/webhook-settings'
import { ownedFlowFinder } from './secret-caller'

/** A flow's completion webhook (secret token): read, set, removed, and its deliveries listed. */
export function registerWebhookRoutes(app: Hono, ctx: AppContext): void {
  const ownedFlow = ownedFlowFinder(ctx)
  const readBody = bodyReader(ctx.config.bodyLimits.managementBytes)

  app.get('/v1/flows/:flowId/webhook', async (c) => c.json({ webhook: await readWebhook(ctx.store, await ownedFlow(c)) }))

  app.put('/v1/flows/:flowId/webhook', async (c) => {
    const flow = await ownedFlow(c)
    const request = await readBody(c, setWebhookRequestSchema, { keys: ['url', 'rotateSecret'] })
    return c.json(await setWebhook(ctx.store, ctx.integrations.key, flow, request, ctx.now()))
  })

  app.delete('/v1/flows/:flowId/webhook', async (c) => {
    await removeWebhook(ctx.store, await ownedFlow(c), ctx.now())
    return c.json({ webhook: null })
  })

  app.get('/v1/flows/:flowId/webhook-deliveries', async (c) => {
    const flow = await ownedFlow(c)
    const limit = integerQuery(c, 'limit', 50, 1, MAX_DELIVERIES_PAGE)
    return c.json({ deliveries: await listDeliveries(ctx.store, flow, limit) })
  })
}
