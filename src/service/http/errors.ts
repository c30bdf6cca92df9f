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
  return c.json(errorBody(error.code, error.message, error.details), error.status)
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
