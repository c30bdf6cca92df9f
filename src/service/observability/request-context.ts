import type { Context } from 'hono'
import type { Logger } from 'pino'
import { log } from './log'

/**
 * What the log knows about the request a line is written for. The request middleware
 * (http/request-log.ts) opens it on the request's Hono context; what runs for the request gets
 * it from there (`logFor(c)`), or is handed it (a chat turn carries it down to the flow's step and
 * to the AI answer it streams after the response left), so each line carries the request id.
 *
 * Handed along rather than found through AsyncLocalStorage: on Node 22 that puts a hook on every
 * promise, and measured it cost a chat request more CPU than the logging and metrics together.
 */
export interface RequestContext {
  /** The service's own id for the request: unique, never taken from the request. */
  readonly requestId: string
  /** The well-formed `X-Request-Id` the request came with (a proxy's, a client's), kept beside it. */
  readonly clientRequestId?: string
  /** The workspace the request turned out to act for, once known (a token, a flow, a session). */
  workspace?: string
  /** The contract's code of the error the request was answered with. */
  errorCode?: string
  /** Where the service was reached (http/service-base.ts): a file answer must be a URL under it. */
  readonly base?: string
}

/** Kept on the request's own context object: a WeakMap of contexts cost the garbage collector more. */
const REQUEST = Symbol('request context')
type WithRequest = Context & { [REQUEST]?: RequestContext }

export function openRequest(c: Context, request: RequestContext): void {
  ;(c as WithRequest)[REQUEST] = request
}

export const requestOf = (c: Context): RequestContext | undefined => (c as WithRequest)[REQUEST]

/** Names the workspace of the request under way. */
export function noteWorkspace(c: Context, workspaceId: string | undefined): void {
  const request = requestOf(c)
  if (request && workspaceId) request.workspace = workspaceId
}

export function noteErrorCode(c: Context, code: string): void {
  const request = requestOf(c)
  if (request) request.errorCode = code
}

/** The log, its lines carrying the request's id and, once known, its workspace (none outside a request). */
export function requestLogger(request: RequestContext | undefined): Logger {
  if (!request) return log()
  const { requestId, clientRequestId, workspace } = request
  // pino leaves out the fields that are undefined.
  return log().child({ requestId, clientRequestId, workspace })
}

export const logFor = (c: Context): Logger => requestLogger(requestOf(c))
