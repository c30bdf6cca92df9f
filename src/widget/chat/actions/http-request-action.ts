import { httpRequestToExecuteSchema } from '../../../protocol/action-payloads'
import { type ClientAction, MAX_MESSAGE_LENGTH } from '../../../protocol/chat'
import { HTTP_REQUEST_TIMEOUT_SECONDS } from '../../../protocol/http-request-limits'
import { safeUrl, WEB_SCHEMES } from '../../content/url'
import { sendVisitorRequest, type VisitorResponse } from '../../transport/visitor-request'
import type { ActionRunner } from './runners'
import { wasStartedBeforeReload } from './started-before-reload'

/** The request of an `httpRequestToExecute` action, or of `webhookToExecute` (its older name). */
function requestOf(action: ClientAction) {
  const raw = action.httpRequestToExecute ?? (action as { webhookToExecute?: unknown }).webhookToExecute
  const parsed = httpRequestToExecuteSchema.safeParse(raw)
  return parsed.success ? parsed.data : undefined
}

/** The block's timeout in seconds, within the contract's bounds (its default when it names none). */
function timeoutSecondsOf(value: unknown): number {
  const { default: fallback, max } = HTTP_REQUEST_TIMEOUT_SECONDS
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.min(Math.max(value, 1), max) : fallback
}

/**
 * Whether the page is being left (`pagehide`, until a `pageshow` brings it back): a request the
 * browser cuts off then has not failed, and its failure must not become the flow's reply, saved
 * and sent by the page that is going away; the next page, finding the request started before the
 * reload, decides whether to send it again. Listened to from the first request on, not at import.
 */
let leaving = false
let listening = false
function noticeLeaving(): void {
  if (listening || typeof addEventListener !== 'function') return
  listening = true
  addEventListener('pagehide', () => {
    leaving = true
  })
  addEventListener('pageshow', () => {
    leaving = false
  })
}

/** Methods that change nothing where they are sent (safe and idempotent, RFC 9110 9.2): sent again after a reload. */
const SAFE_TO_REPEAT: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * An HTTP request block run from the visitor's browser (`isExecutedOnClient`): only to an http(s)
 * address, without the page's cookies, within the block's timeout and the contract's size cap
 * (and an answer continueChat can take: at most MAX_MESSAGE_LENGTH characters as JSON).
 * Its `{statusCode, data}` is the dedicated reply, sent once like any answer (with its
 * idempotency key, and saved for a remembered conversation). A request that gets no answer
 * replies status 500 with the reason, and is reported to the page: the flow goes on either way.
 * A request that was in flight when the page reloaded (a remembered conversation) is sent again
 * only when its method is safe to repeat; any other gets that failure, so a POST is never sent twice.
 */
export const httpRequest: ActionRunner = async (action, { emit, signal }) => {
  const request = requestOf(action)
  const url = safeUrl(request?.url, WEB_SCHEMES)
  const method = request?.method || 'GET'
  noticeLeaving()
  let result =
    !request || !url
      ? failure(request ? 'The address is not an http(s) URL' : 'The action names no request')
      : wasStartedBeforeReload(action) && !SAFE_TO_REPEAT.has(method.toUpperCase())
        ? failure(`The page was reloaded while this ${method} request was in flight, so it was not sent twice`)
        : await sendVisitorRequest(
            { url, method, headers: request.headers ?? {}, body: request.body },
            { signal, timeoutMs: timeoutSecondsOf(request.timeoutSeconds) * 1000 },
          )
  // continueChat takes answers up to MAX_MESSAGE_LENGTH: a longer result would be refused, and the chat stuck.
  if (replyOf(result).length > MAX_MESSAGE_LENGTH) {
    result = failure(`The answer was too large to hand to the flow (over ${MAX_MESSAGE_LENGTH} characters as JSON)`)
  }
  // The page is going away: nothing more happens here (a promise that never settles).
  if (result.failure !== undefined && leaving) return new Promise<never>(() => undefined)
  if (result.failure !== undefined) {
    const description = `The flow's HTTP request from this page got no answer: ${result.failure}`
    const details = { url: request?.url, method: request?.method }
    emit('flowchat:log', { status: 'error', description, details, source: 'widget', code: 'http-request-failed' })
    emit('flowchat:error', { code: 'http-request-failed', message: description, retryable: false, details })
  }
  return { reply: replyOf(result) }
}

const failure = (reason: string): VisitorResponse => ({ statusCode: 500, data: reason, failure: reason })
const replyOf = ({ statusCode, data }: VisitorResponse) => JSON.stringify({ statusCode, data })
