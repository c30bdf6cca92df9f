import type { Hono } from 'hono'
import type { AppContext } from '../context'
import { analyticsCsv } from '../flows/analytics-csv'
import { flowAnalytics, readAnalyticsQuery } from '../flows/flow-analytics'
import { ownedFlowFinder } from './secret-caller'

/** Where a flow's visitors drop off (secret token, like the results it counts), as JSON or a CSV file. */
export function registerAnalyticsRoutes(app: Hono, ctx: AppContext): void {
  const ownedFlow = ownedFlowFinder(ctx)

  app.get('/v1/flows/:flowId/analytics', async (c) => {
    const flow = await ownedFlow(c)
    const request = readAnalyticsQuery(c.req.queries(), ctx.now())
    const figures = await flowAnalytics(ctx.store, flow, request)
    if (request.format === 'json') return c.json(figures)
    const version = figures.version === null ? '' : `-v${figures.version}`
    c.header('Content-Type', 'text/csv; charset=utf-8')
    c.header('Content-Disposition', `attachment; filename="${flow.publicId}-drop-off${version}-${figures.from}-${figures.to}.csv"`)
    return c.body(analyticsCsv(figures))
  })
}
