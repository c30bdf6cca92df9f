import type { Hono } from 'hono'
import type { AppContext } from '../context'
import { flowAnalytics, readAnalyticsQuery } from '../flows/flow-analytics'
import { ownedFlowFinder } from './secret-caller'

/** Where a flow's visitors drop off (secret token, like the results it counts). */
export function registerAnalyticsRoutes(app: Hono, ctx: AppContext): void {
  const ownedFlow = ownedFlowFinder(ctx)

  app.get('/v1/flows/:flowId/analytics', async (c) => {
    const flow = await ownedFlow(c)
    return c.json(await flowAnalytics(ctx.store, flow, readAnalyticsQuery(c.req.queries(), ctx.now())))
  })
}
