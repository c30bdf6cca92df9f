import { formatEvent } from '../../../protocol/event-stream'

/**
 * A Server-Sent Events body: `open` subscribes and writes through the sink; comment lines every
 * `heartbeatMs` keep proxies from closing a quiet stream; the stream ends after `maxMs` (the
 * client reconnects with Last-Event-ID), when the sink ends it, or when the client goes away,
 * and `closed` runs once whichever came first.
 */
export interface EventSink {
  event(type: string, payload: unknown, id?: number | string): void
  end(): void
}

export interface EventStreamOptions {
  heartbeatMs: number
  maxMs: number
  signal?: AbortSignal
  closed: () => void
}

const encoder = new TextEncoder()

export function eventStreamBody(open: (sink: EventSink) => Promise<() => void>, options: EventStreamOptions): ReadableStream<Uint8Array> {
  let finish: (() => void) | undefined
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      let done = false
      let unsubscribe: (() => void) | undefined
      const timers: NodeJS.Timeout[] = []
      finish = () => {
        if (done) return
        done = true
        for (const timer of timers) clearInterval(timer)
        options.signal?.removeEventListener('abort', finish!)
        unsubscribe?.()
        options.closed()
        try {
          controller.close()
        } catch {
          // Already closed by the client.
        }
      }
      const write = (text: string) => {
        if (done) return
        try {
          controller.enqueue(encoder.encode(text))
        } catch {
          finish?.()
        }
      }
      // A reconnecting EventSource waits this long; the first line also gets the response going through buffers.
      write('retry: 2000\n\n')
      timers.push(setInterval(() => write(': keep-alive\n\n'), options.heartbeatMs))
      timers.push(setTimeout(() => finish?.(), options.maxMs))
      for (const timer of timers) timer.unref()
      options.signal?.addEventListener('abort', finish, { once: true })
      try {
        const stop = await open({ event: (type, payload, id) => write(formatEvent(type, payload, id)), end: () => finish?.() })
        if (done) stop()
        else unsubscribe = stop
      } catch (error) {
        finish()
        throw error
      }
    },
    cancel() {
      finish?.()
    },
  })
}

/** The headers of an event stream: never cached, never buffered by a proxy. */
export const EVENT_STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-store',
  'X-Accel-Buffering': 'no',
}
