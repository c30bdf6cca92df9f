import { createStreamParser, STREAM_MESSAGE_PATH, type StreamErrorLog, StreamFormatError, type StreamPart } from '../../protocol/stream'
import { TransportError } from './errors'
import { type FetchLike, httpError, jsonOf } from './http'
import { sleep as defaultSleep, type RetryPolicy, type Sleep, withRetry } from './retry'

/**
 * How long the widget waits on a stream. The service gives its AI provider 30 s to connect and
 * send the first piece and 30 s between pieces, then ends the stream with an error part; the
 * widget waits a little longer for either, so it hears the service's reason rather than its own
 * timeout. A stream that fails to start (unreachable, 5xx, 429) is tried once more after a short
 * pause. (Here, not in time-limits.ts: only this chunk reads them, and the core keeps every
 * binding a chunk imports from it.)
 */
export const STREAM_LIMITS = { startMs: 45_000, idleMs: 45_000, startRetry: { retries: 1, baseDelayMs: 1_500, maxDelayMs: 1_500 } } as const

/** Where a session's answer streams from (the client knows the chat host and the fetch to use). */
export interface StreamTarget {
  /** `{chat_base_url}`, without a trailing slash. */
  chatApi: string
  sessionId: string
  fetch: FetchLike
}

export const streamUrl = ({ chatApi, sessionId }: StreamTarget) =>
  chatApi + STREAM_MESSAGE_PATH.replace('{sessionId}', encodeURIComponent(sessionId))

export interface StreamOptions {
  /** Aborts the request and the reading (the chat closed, was reset or removed). */
  signal: AbortSignal
  /** The service accepted the stream (200): text may follow. */
  onOpen?(): void
  /** A piece of the answer, to append to what came before. */
  onText(text: string): void
  sleep?: Sleep
  startTimeoutMs?: number
  idleTimeoutMs?: number
  retry?: RetryPolicy
}

/** How a stream ended: complete and recorded by the service, or failed with the service's log. */
export type StreamEnd = { ok: true; finishReason: string } | { ok: false; log: StreamErrorLog }

/**
 * `streamMessage`: posts `{}` to the session's stream and reads the data stream as it arrives,
 * handing each text piece to `onText` (nothing accumulates here, so a long answer costs the same
 * per piece as a short one). A stream that fails to start (unreachable, 5xx, 429) is tried once
 * more after a short pause; once the service answered 200, a broken connection, a pause longer
 * than `idleTimeoutMs` or a body that ends without its last part rejects with a `TransportError`
 * (`network`, `timeout`, `invalid-response`), and an abort with `aborted`.
 */
export async function streamMessage(target: StreamTarget, options: StreamOptions): Promise<StreamEnd> {
  const { signal } = options
  const opened = await withRetry(() => open(target, options), options.retry ?? STREAM_LIMITS.startRetry, {
    signal,
    sleep: options.sleep ?? defaultSleep,
  })
  options.onOpen?.()
  return read(opened, options)
}

type Reader = { read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>; cancel(reason?: unknown): Promise<void> }

/** An open stream: its reader, and the listener that aborts it with the caller's signal (to remove). */
interface Opened {
  reader: Reader
  release(): void
}

async function open(target: StreamTarget, options: StreamOptions): Promise<Opened> {
  const { signal } = options
  if (signal.aborted) throw new TransportError('aborted', 'Request cancelled')
  const controller = new AbortController()
  const onAbort = () => controller.abort()
  signal.addEventListener('abort', onAbort, { once: true })
  const release = () => signal.removeEventListener('abort', onAbort)
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort()
  }, options.startTimeoutMs ?? STREAM_LIMITS.startMs)
  let response: Response
  try {
    response = await target.fetch(streamUrl(target), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/plain' },
      body: '{}',
      signal: controller.signal,
      credentials: 'omit',
    })
    if (!response.ok) throw httpError(response.status, jsonOf(await response.text()), response.headers.get('Retry-After'))
  } catch (cause) {
    release()
    throw failure(cause, signal, timedOut)
  } finally {
    clearTimeout(timer)
  }
  const body = response.body
  const reader: Reader = body
    ? body.getReader()
    : // No readable body in this browser: the whole answer arrives at once.
      (() => {
        let text: Promise<string> | undefined
        return {
          read: async () => (text ? { done: true } : { done: false, value: new TextEncoder().encode(await (text = response.text())) }),
          cancel: async () => {},
        }
      })()
  return { reader, release }
}

function failure(cause: unknown, signal: AbortSignal, timedOut: boolean): TransportError {
  if (signal.aborted) return new TransportError('aborted', 'Request cancelled', { cause })
  if (cause instanceof TransportError) return cause
  if (timedOut) return new TransportError('timeout', 'The answer took too long to arrive', { cause })
  if (cause instanceof StreamFormatError) return new TransportError('invalid-response', cause.message, { cause })
  return new TransportError('network', 'The connection to the chat service was lost', { cause })
}

async function read({ reader, release }: Opened, options: StreamOptions): Promise<StreamEnd> {
  const { signal, onText } = options
  const parser = createStreamParser()
  const deliver = (parts: StreamPart[]): StreamEnd | undefined => {
    for (const part of parts) {
      if (part.type === 'text') onText(part.text)
      else if (part.type === 'error') return { ok: false, log: part.log }
      else return { ok: true, finishReason: part.finishReason }
    }
    return undefined
  }
  const idleMs = options.idleTimeoutMs ?? STREAM_LIMITS.idleMs
  // Aborting the request ends its body in a browser; cancelling the reader makes sure of it.
  const onAbort = () => void reader.cancel().catch(() => {})
  signal.addEventListener('abort', onAbort, { once: true })
  try {
    for (;;) {
      const { done, value } = await readWithin(reader, idleMs)
      const end = deliver(done ? parser.end() : parser.push(value ?? new Uint8Array()))
      if (end) return end
      if (done) throw new TransportError('network', 'The answer stopped before it was complete')
    }
  } catch (cause) {
    void reader.cancel().catch(() => {})
    throw failure(cause, signal, false)
  } finally {
    signal.removeEventListener('abort', onAbort)
    release()
  }
}

/**
 * One read, rejected with a `timeout` when no piece comes within `ms`: the limit is on a pause
 * between two pieces, not on the whole answer.
 */
function readWithin(reader: Reader, ms: number) {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TransportError('timeout', 'The answer stopped arriving')), ms)
  })
  return Promise.race([reader.read(), timeout]).finally(() => clearTimeout(timer))
}
