// Named zod imports, not the `z` namespace: only a chunk imports this module (build/lazy-chunks.ts).
import { unknown } from 'zod/mini'
import {
  HANDOFF_EVENTS_PATH,
  HANDOFF_LEAVE_PATH,
  HANDOFF_MESSAGES_PATH,
  HANDOFF_TYPING_PATH,
  type HandoffEvent,
  type HandoffPollResponse,
  handoffEventSchema,
  handoffPath,
  handoffPollResponseSchema,
  type TypingEvent,
  typingEventSchema,
} from '../../protocol/handoff'
import type { ChatEndpoint } from './client'
import { jsonOf, requestJson } from './http'
import { DEFAULT_RETRY_POLICY, type Sleep, withRetry } from './retry'

/**
 * A handoff's live channel from the visitor's side (protocol/handoff.ts): its events as
 * Server-Sent Events through the browser's `EventSource`, the long poll that stands in where a
 * stream cannot stay open, and the visitor's writes. Only the handoff chunk imports this module.
 *
 * `EventSource` rather than fetch and a stream parser: the browser's own client costs no bytes,
 * reconnects by itself with `Last-Event-ID` (a header it sends without a CORS preflight, which a
 * fetch could not), and reads the session id in the address as the only credential, as
 * continueChat does (docs/decisions/2026-11-28-handoff-event-source.md).
 */

/**
 * How long an `EventSource` may try to open (or reopen, after a drop) before this attempt counts as
 * failed: a proxy that holds the response back never opens it, and never says so.
 */
export const STREAM_OPEN_MS = 10_000
/** Errors in a row, with no open between them, after which an `EventSource` attempt counts as failed. */
const STREAM_ERRORS = 3

export type EventSourceConstructor = new (url: string) => EventSource

/** What one stream hands over as it arrives. `event` returns true for the last one (`continued`): the stream closes. */
export interface FeedListener {
  event(event: HandoffEvent): boolean
  typing(event: TypingEvent): void
}

const eventsUrl = ({ chatApi }: ChatEndpoint, sessionId: string) => chatApi + handoffPath(HANDOFF_EVENTS_PATH, sessionId)

/**
 * One long poll of the handoff's events after `after` (its last `seq` shown), never retried here:
 * the caller keeps asking. `timeoutSeconds` 0 answers at once: where the handoff stands and what
 * was missed, before a stream opens.
 */
export function pollEvents(
  endpoint: ChatEndpoint,
  sessionId: string,
  after: number,
  signal: AbortSignal,
  timeoutSeconds: number,
): Promise<HandoffPollResponse> {
  const url = `${eventsUrl(endpoint, sessionId)}?poll=1&after=${after}&timeoutSeconds=${timeoutSeconds}`
  // The service holds the request up to `timeoutSeconds`: the time limit starts after that.
  return requestJson(url, handoffPollResponseSchema, {
    signal,
    timeoutMs: endpoint.timeoutMs + timeoutSeconds * 1000,
    fetch: endpoint.fetch,
  })
}

/**
 * Follows the handoff's events after `after` on one `EventSource`, handing each to `listener`,
 * until the last one (resolves `{done: true}`), or until the stream fails: the service refused it
 * (closed for good), it did not open within `STREAM_OPEN_MS`, or it kept failing without opening.
 * `opened` says whether it ever opened: a stream that opens and later drops worked, one that
 * never opens may be behind a proxy that cannot stream. Rejects only when `signal` aborts.
 */
export function streamEvents(
  endpoint: ChatEndpoint,
  sessionId: string,
  after: number,
  listener: FeedListener,
  signal: AbortSignal,
  Source: EventSourceConstructor,
  openMs = STREAM_OPEN_MS,
): Promise<{ done: boolean; opened: boolean }> {
  return new Promise((resolve, reject) => {
    const source = new Source(`${eventsUrl(endpoint, sessionId)}?after=${after}`)
    let opened = false
    let errors = 0
    let timer: ReturnType<typeof setTimeout> | undefined
    const end = (done: boolean) => {
      source.close()
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
      resolve({ done, opened })
    }
    const onAbort = () => {
      source.close()
      clearTimeout(timer)
      reject(signal.reason)
    }
    /** Waits `openMs` for the stream to (re)open. */
    const watch = () => {
      clearTimeout(timer)
      timer = setTimeout(() => end(false), openMs)
    }
    signal.addEventListener('abort', onAbort, { once: true })
    watch()
    source.onopen = () => {
      opened = true
      errors = 0
      clearTimeout(timer)
    }
    source.onerror = () => {
      // CLOSED: the service refused the stream (a status, a type that is no stream). Else the
      // browser reconnects by itself, with Last-Event-ID, unless it keeps failing.
      if (source.readyState === 2 || ++errors >= STREAM_ERRORS) return end(false)
      watch()
    }
    const stored = (message: MessageEvent) => {
      const parsed = handoffEventSchema.safeParse(jsonOf(String(message.data)))
      // An event this widget cannot read is skipped: the next poll's schema check says why, if it persists.
      if (parsed.success && listener.event(parsed.data)) end(true)
    }
    for (const type of ['message', 'status', 'continued']) source.addEventListener(type, stored as EventListener)
    source.addEventListener('typing', ((message: MessageEvent) => {
      const parsed = typingEventSchema.safeParse(jsonOf(String(message.data)))
      if (parsed.success) listener.typing(parsed.data)
    }) as EventListener)
  })
}

/**
 * Sends the visitor's message with its idempotency key, retried (with the same key) while the
 * failure may pass: the service stores it once however often it arrives.
 */
export function sendHandoffMessage(
  endpoint: ChatEndpoint,
  sessionId: string,
  text: string,
  key: string,
  signal: AbortSignal,
  sleep?: Sleep,
): Promise<HandoffEvent> {
  const url = endpoint.chatApi + handoffPath(HANDOFF_MESSAGES_PATH, sessionId)
  return withRetry(
    () =>
      requestJson(url, handoffEventSchema, {
        method: 'POST',
        headers: { 'Idempotency-Key': key },
        body: { text },
        signal,
        timeoutMs: endpoint.timeoutMs,
        fetch: endpoint.fetch,
      }),
    DEFAULT_RETRY_POLICY,
    { signal, sleep },
  )
}

/** A write whose answer says nothing more than its status (204, or JSON the stream repeats). */
const done = /* @__PURE__ */ unknown()

const post = async (endpoint: ChatEndpoint, path: string, body: unknown, signal: AbortSignal): Promise<void> => {
  await requestJson(endpoint.chatApi + path, done, { method: 'POST', body, signal, timeoutMs: endpoint.timeoutMs, fetch: endpoint.fetch })
}

/** Tells the person whether the visitor is typing (once, not retried: the next keystroke says it again). */
export const sendTyping = (endpoint: ChatEndpoint, sessionId: string, typing: boolean, signal: AbortSignal): Promise<void> =>
  post(endpoint, handoffPath(HANDOFF_TYPING_PATH, sessionId), { typing }, signal)

/** The visitor leaves the queue or the conversation; retried while the failure may pass (leaving twice is leaving). */
export const leaveHandoff = (endpoint: ChatEndpoint, sessionId: string, signal: AbortSignal, sleep?: Sleep): Promise<void> =>
  withRetry(() => post(endpoint, handoffPath(HANDOFF_LEAVE_PATH, sessionId), {}, signal), DEFAULT_RETRY_POLICY, { signal, sleep })
