import type { StreamErrorLog } from '../../protocol/stream'
import { log } from '../observability/log'
import { metrics } from '../observability/metrics'

/**
 * The streamed answers this process is reading from a provider, by session and stream. Requests
 * of this process follow them here, part by part, at a constant cost per part; requests of other
 * processes follow the text the run writes to the database (see stream-service.ts).
 */
export class LiveStream {
  readonly parts: string[] = []
  status: 'running' | 'done' | 'failed' = 'running'
  /** Why a `done` answer ended: `stop`, or `length` when it was cut at its byte limit. */
  finishReason = 'stop'
  error: Omit<StreamErrorLog, 'status' | 'context'> | undefined
  /** Aborted when the process shuts down: the run stops and records the failure. */
  readonly abort = new AbortController()
  private readonly wakers = new Set<() => void>()

  push(text: string): void {
    this.parts.push(text)
    this.wake()
  }

  end(status: 'done' | 'failed', error?: Omit<StreamErrorLog, 'status' | 'context'>): void {
    this.status = status
    this.error = error
    this.wake()
  }

  /** Resolves once there are more than `seen` parts or the stream ended (or `signal` aborts). */
  changed(seen: number, signal?: AbortSignal): Promise<void> {
    if (this.parts.length > seen || this.status !== 'running' || signal?.aborted) return Promise.resolve()
    return new Promise((resolve) => {
      const wake = () => {
        this.wakers.delete(wake)
        signal?.removeEventListener('abort', wake)
        resolve()
      }
      this.wakers.add(wake)
      signal?.addEventListener('abort', wake, { once: true })
    })
  }

  private wake(): void {
    for (const wake of [...this.wakers]) wake()
  }
}

export class LiveStreams {
  private readonly streams = new Map<string, LiveStream>()
  private readonly runs = new Set<Promise<void>>()

  get(sessionId: string, streamId: string): LiveStream | undefined {
    return this.streams.get(key(sessionId, streamId))
  }

  /** Runs `run` on a new live stream, in the background; it is forgotten once `run` settles. */
  start(sessionId: string, streamId: string, run: (live: LiveStream) => Promise<void>): LiveStream {
    const live = new LiveStream()
    const id = key(sessionId, streamId)
    this.streams.set(id, live)
    metrics.aiStreamsActive.inc()
    const running = run(live)
      .catch((error: unknown) => {
        log().error({ err: error }, 'a streamed answer failed unexpectedly')
        if (live.status === 'running') live.end('failed', { description: 'The answer could not be streamed' })
      })
      .finally(() => {
        if (this.streams.get(id) === live) this.streams.delete(id)
        this.runs.delete(running)
        metrics.aiStreamsActive.dec()
        metrics.aiStreams.inc({ outcome: live.status !== 'done' ? 'failed' : live.finishReason === 'length' ? 'cut' : 'done' })
      })
    this.runs.add(running)
    return live
  }

  /** Stops every run (each records its failure) and waits for them. */
  async close(): Promise<void> {
    for (const live of this.streams.values()) live.abort.abort()
    await Promise.allSettled([...this.runs])
  }
}

const key = (sessionId: string, streamId: string) => `${sessionId}\n${streamId}`
