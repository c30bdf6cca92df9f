import { createEventStreamParser, type ServerSentEvent } from './event-stream'

/**
 * Follows a Server-Sent Events stream read with `fetch` (for clients that must send headers
 * `EventSource` cannot: the console's inbox, a team's own tools), as `EventSource` would: it
 * reconnects when the stream ends or breaks, sending the id of the last event it delivered as
 * `Last-Event-ID`, so the service replays exactly what was missed. Failures wait longer each time
 * (exponential backoff with jitter, so clients that lost the service together do not return in
 * lockstep); a stream that delivered an event starts the count again. A stream silent for longer
 * than `idleTimeoutMs` (heartbeats included) is taken as dead: a proxy may hold a connection
 * open that no longer carries anything. No Node APIs, no schema library.
 */

export type StreamState = 'connecting' | 'open' | 'waiting' | 'closed'

export interface FollowEventStreamOptions {
  /** Opens the stream: a 2xx response with a body, or throws (an `ApiError` for a refusal). */
  open(lastEventId: string | undefined, signal: AbortSignal): Promise<Response>
  /** Each event, once, in order. */
  onEvent(event: ServerSentEvent): void
  /** The stream is open again after a break: a client may re-read what a replay does not cover. */
  onOpen?(reopened: boolean): void
  onState?(state: StreamState): void
  /** Whether a failure is worth another attempt (default: every one); when not, `onGiveUp` says why and the follower stops. */
  retryable?(error: unknown): boolean
  onGiveUp?(error: unknown): void
  /** The id to resume after (an event already held). */
  lastEventId?: string
  backoff?: Backoff
  idleTimeoutMs?: number
  random?: () => number
}

export interface EventStreamFollower {
  /** Stops following: the open request is aborted and no other is made. */
  close(): void
  /** The id of the last event delivered. */
  readonly lastEventId: string | undefined
}

export interface Backoff {
  baseDelayMs: number
  maxDelayMs: number
}

export const STREAM_BACKOFF: Backoff = { baseDelayMs: 1_000, maxDelayMs: 30_000 }
/**
 * The longest the service lets a stream stay silent: a heartbeat comment at least this often
 * (HANDOFF_HEARTBEAT_SECONDS may be shorter, never longer). Many proxies close a connection idle
 * for 60 s.
 */
export const MAX_HEARTBEAT_SECONDS = 30
/** A stream silent this long (one and a half heartbeats at their longest) is taken as dead. */
export const STREAM_IDLE_TIMEOUT_MS = MAX_HEARTBEAT_SECONDS * 1_500

/** Half the ceiling fixed, half random ("equal jitter"). */
export const streamRetryDelay = (attempt: number, backoff = STREAM_BACKOFF, random = Math.random) => {
  const ceiling = Math.min(backoff.maxDelayMs, backoff.baseDelayMs * 2 ** attempt)
  return ceiling / 2 + (random() * ceiling) / 2
}

export function followEventStream(options: FollowEventStreamOptions): EventStreamFollower {
  const stopped = new AbortController()
  let lastEventId = options.lastEventId
  const state = (value: StreamState) => options.onState?.(value)

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms)
      function done() {
        clearTimeout(timer)
        stopped.signal.removeEventListener('abort', done)
        resolve()
      }
      stopped.signal.addEventListener('abort', done, { once: true })
    })

  let everOpened = false
  let delivered = false
  /** One connection, read to its end (`delivered` says whether it brought an event). */
  const readOnce = async (): Promise<void> => {
    const attempt = new AbortController()
    const abort = () => attempt.abort()
    stopped.signal.addEventListener('abort', abort, { once: true })
    let idle: ReturnType<typeof setTimeout> | undefined
    const stillAlive = () => {
      clearTimeout(idle)
      idle = setTimeout(abort, options.idleTimeoutMs ?? STREAM_IDLE_TIMEOUT_MS)
    }
    delivered = false
    try {
      stillAlive()
      const response = await options.open(lastEventId, attempt.signal)
      if (!response.body) throw new TypeError('The event stream has no body.')
      const reader = response.body.getReader()
      state('open')
      options.onOpen?.(everOpened)
      everOpened = true
      const parser = createEventStreamParser()
      for (;;) {
        const { done, value } = await reader.read()
        if (done || stopped.signal.aborted) break
        stillAlive()
        for (const event of parser.push(value)) {
          // The id of an event delivered, never one whose event a broken stream cut short.
          if (event.id !== undefined) lastEventId = event.id
          delivered = true
          options.onEvent(event)
        }
      }
      if (attempt.signal.aborted && !stopped.signal.aborted) throw new Error('The event stream went silent.')
    } finally {
      clearTimeout(idle)
      stopped.signal.removeEventListener('abort', abort)
      attempt.abort()
    }
  }

  const run = async () => {
    let failures = 0
    while (!stopped.signal.aborted) {
      state('connecting')
      try {
        await readOnce()
      } catch (error) {
        if (stopped.signal.aborted) break
        if (options.retryable && !options.retryable(error)) {
          state('closed')
          options.onGiveUp?.(error)
          return
        }
      }
      if (stopped.signal.aborted) break
      if (delivered) failures = 0
      state('waiting')
      await wait(streamRetryDelay(failures++, options.backoff, options.random))
    }
    state('closed')
  }
  void run()

  return {
    close: () => stopped.abort(),
    get lastEventId() {
      return lastEventId
    },
  }
}
