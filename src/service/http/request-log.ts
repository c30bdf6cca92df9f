import type { Context, MiddlewareHandler } from 'hono'
import { matchedRoutes } from 'hono/route'
import { newId, tokenKindOf } from '../ids'
import { log } from '../observability/log'
import { countingMetrics, metrics } from '../observability/metrics'
import { openRequest, type RequestContext } from '../observability/request-context'
import { clientAddress } from './client-address'
import { serviceBase } from './service-base'

/**
 * The first middleware of every request: gives it an id of the service's own, returns it in
 * `X-Request-Id`, handles the request with its log context open (request-context.ts: every line
 * it causes carries the id), then writes its access line and counts it. An `X-Request-Id` the
 * request came with (a proxy's or a client's) is kept beside ours as `clientRequestId` when it
 * looks like an id, never as the request's id: a client sending an earlier request's id again,
 * ours or its own, cannot make two requests' lines one. Routes are named by their pattern
 * (`/v1/sessions/:sessionId/continueChat`), never by their path: paths hold session ids, which
 * are a visitor's key to a conversation.
 */
export const REQUEST_ID_HEADER = 'X-Request-Id'

/** Letters, digits and `.`, `_`, `:`, `-`, 8 to 128 of them: UUIDs, ULIDs, trace ids, our own ids. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/

/** Probes answered well are written at `debug`: a load balancer asks every few seconds. */
const PROBES = new Set(['/v1/health', '/v1/health/live', '/v1/health/ready', '/metrics'])
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

export function requestLog(options: { trustProxyHops: number; publicUrl?: string }): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now()
    const sent = c.req.header(REQUEST_ID_HEADER)
    const request: RequestContext = {
      requestId: newId(),
      base: serviceBase(c, options.publicUrl),
      ...(sent !== undefined && isRequestId(sent) ? { clientRequestId: sent } : {}),
    }
    c.header(REQUEST_ID_HEADER, request.requestId)
    openRequest(c, request)
    await next()
    const headers = c.res.headers
    // A handler that built its Response itself did not get the header set above.
    if (!headers.has(REQUEST_ID_HEADER)) c.header(REQUEST_ID_HEADER, request.requestId)

    const seconds = (performance.now() - started) / 1000
    const method = METHODS.has(c.req.method) ? c.req.method : 'other'
    const route = routeOf(c)
    const { status } = c.res
    if (countingMetrics()) {
      metrics.requests.inc({ method, route, status })
      metrics.requestSeconds.observe({ method, route }, seconds)
    }

    const bytes = Number(headers.get('content-length') ?? Number.NaN)
    const level = status < 400 && PROBES.has(route) ? 'debug' : 'info'
    // One shape for every line (pino leaves out the fields that are undefined).
    log()[level](
      {
        requestId: request.requestId,
        clientRequestId: request.clientRequestId,
        workspace: request.workspace,
        method,
        route,
        status,
        durationMs: Math.round(seconds * 10_000) / 10,
        bytes: Number.isFinite(bytes) ? bytes : undefined,
        client: clientAddress(c, options.trustProxyHops),
        errorCode: request.errorCode,
      },
      'request',
    )
  }
}

/** Whether an id sent with a request may be kept beside ours: one of the service's tokens sent by mistake may not. */
export const isRequestId = (id: string) => REQUEST_ID_PATTERN.test(id) && tokenKindOf(id) === undefined

/** The pattern of the route answering for this method and path; `unmatched` when none did. */
function routeOf(c: Context): string {
  // Middleware is registered for every method (`ALL`); routes for theirs.
  return matchedRoutes(c).find((route) => route.method !== 'ALL')?.path ?? 'unmatched'
}
