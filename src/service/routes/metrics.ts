import { createHash, timingSafeEqual } from 'node:crypto'
import type { Hono } from 'hono'
import { bearerToken, refuseAuthentication, type TokenAuth } from '../http/auth'
import { exposedMetrics, METRICS_CONTENT_TYPE } from '../observability/cluster-metrics'
import { countMetrics } from '../observability/metrics'

/**
 * `GET /metrics`, the Prometheus text format (observability/metrics.ts), for a scraper holding
 * `Authorization: Bearer <METRICS_TOKEN>`. Without METRICS_TOKEN the route does not exist. A
 * wrong token counts against the client address's failed authentications, like the API's. The
 * figures are counted only while the route exists (metrics.ts's `countMetrics`).
 */
export function registerMetricsRoute(app: Hono, deps: { token: string | undefined; auth: TokenAuth }): void {
  const { token, auth } = deps
  if (token === undefined) return
  countMetrics()
  const expected = digest(token)
  app.get('/metrics', async (c) => {
    const sent = bearerToken(c.req.header('authorization'))
    if (sent === undefined || !timingSafeEqual(digest(sent), expected)) {
      return refuseAuthentication(c, auth, 'Send "Authorization: Bearer <METRICS_TOKEN>".')
    }
    return c.body(await exposedMetrics(), 200, { 'Content-Type': METRICS_CONTENT_TYPE, 'Cache-Control': 'no-store' })
  })
}

const digest = (text: string) => createHash('sha256').update(text).digest()
