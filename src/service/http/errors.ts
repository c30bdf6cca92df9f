import type { IncomingMessage } from 'node:http'
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { ERROR_CODES, type ErrorBody, type ErrorCode } from '../../protocol/index'
import { logFor, noteErrorCode } from '../observability/request-context'

/**
 * An error meant for the client: status, stable code and a message a developer can act on.
 * Anything else thrown inside a handler becomes a 500 `internal` without details.
 */
export class HttpError extends Error {
  readonly status: ContentfulStatusCode

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'HttpError'
    this.status = ERROR_CODES[code] as ContentfulStatusCode
  }
}

export function errorBody(code: ErrorCode, message: string, details?: unknown): ErrorBody {
  return { error: details === undefined ? { code, message } : { code, message, details } }
}

export function errorResponse(c: Context, error: HttpError): Response {
  noteErrorCode(c, error.code)
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value)
  if (bodyStillArriving(c)) c.header('Connection', 'close')
  return c.json(errorBody(error.code, error.message, error.details), error.status)
}

/**
 * Whether the request refused is still sending its body (an upload refused before or while it
 * arrives). Its connection is then closed after the answer: kept open, the rest of the body
 * (up to 64 MiB) would be read only to be thrown away, and a client flooding refused uploads
 * would cost the service every byte it sends.
 */
function bodyStillArriving(c: Context): boolean {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
  return incoming !== undefined && incoming.method !== 'GET' && incoming.method !== 'HEAD' && !incoming.readableEnded
}

/** The app's `onError`: client errors as they are, everything else logged and hidden. */
export function handleError(error: Error, c: Context): Response {
  if (error instanceof HttpError) return errorResponse(c, error)
  noteErrorCode(c, 'internal')
  logFor(c).error({ err: error }, 'request failed')
  return c.json(errorBody('internal', 'Something went wrong on our side. Please try again.'), 500)
}

export function handleNotFound(c: Context): Response {
  noteErrorCode(c, 'not_found')
  return c.json(errorBody('not_found', `No route for ${c.req.method} ${c.req.path}`), 404)
}
