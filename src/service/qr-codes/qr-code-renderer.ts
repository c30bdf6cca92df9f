import { Worker } from 'node:worker_threads'
import type { QRCodeToBufferOptions } from 'qrcode'
import { HttpError } from '../http/errors'
import { serviceFile } from '../service-files'

/**
 * Draws QR code pictures on a worker thread (qr-code-worker.mjs), never on the event loop: a
 * 1,000-character code takes a tenth to half a second of CPU, which on the loop delayed every
 * other request by as much. One thread draws one picture at a time, so however many are asked
 * for, at most one core goes to them, at a lower priority than the requests.
 *
 * Waiting drawings are grouped by client (its network, http/client-address.ts) and taken in
 * turn, one per client, so a client asking for many waits behind itself: another's picture waits
 * for at most one drawing per client ahead of it. A client may have `perClient` drawings waiting
 * or under way, and at most `maxWaiting` wait in all; past either the request is refused with
 * 429 at once, having cost nothing.
 */
export interface QrRendererOptions {
  /** What the worker passes to `qrcode` (qr-code-images.ts decides). */
  draw: QRCodeToBufferOptions
  perClient?: number
  maxWaiting?: number
  /** A drawing taking longer (a stuck worker) fails, and the worker is replaced. */
  timeoutMs?: number
}

export const DEFAULT_QR_PER_CLIENT = 4
export const DEFAULT_QR_MAX_WAITING = 64
const DEFAULT_TIMEOUT_MS = 10_000

interface Job {
  id: number
  text: string
  client: string
  resolve: (png: Uint8Array<ArrayBuffer>) => void
  reject: (error: Error) => void
}

interface WorkerReply {
  ready?: boolean
  id?: number
  png?: Uint8Array<ArrayBuffer>
  error?: string
}

export class QrCodeRenderer {
  private worker: Worker | undefined
  private ready = false
  /** Waiting jobs by client, and when each client was last served (a new one: never). */
  private readonly waiting = new Map<string, Job[]>()
  private readonly servedAt = new Map<string, number>()
  private turn = 0
  private waitingCount = 0
  private current: { job: Job; timer: NodeJS.Timeout } | undefined
  private nextId = 1
  private readonly perClient: number
  private readonly maxWaiting: number
  private readonly timeoutMs: number
  private closed = false

  constructor(private readonly options: QrRendererOptions) {
    this.perClient = options.perClient ?? DEFAULT_QR_PER_CLIENT
    this.maxWaiting = options.maxWaiting ?? DEFAULT_QR_MAX_WAITING
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  }

  /** The PNG of `text` (a text the caller checked), drawn in `client`'s turn. */
  render(text: string, client: string): Promise<Uint8Array<ArrayBuffer>> {
    const queue = this.waiting.get(client)
    const held = (queue?.length ?? 0) + (this.current?.job.client === client ? 1 : 0)
    if (held >= this.perClient) return Promise.reject(busy(`at most ${this.perClient} QR codes are drawn at once for one client`))
    if (this.waitingCount >= this.maxWaiting) return Promise.reject(busy('too many QR codes are waiting to be drawn'))
    if (this.closed) return Promise.reject(new Error('The QR code renderer was closed'))
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, text, client, resolve, reject }
      if (queue) queue.push(job)
      else this.waiting.set(client, [job])
      this.waitingCount++
      this.pump()
    })
  }

  /** Stops the worker; waiting drawings fail. */
  async close(): Promise<void> {
    this.closed = true
    const worker = this.worker
    this.worker = undefined
    this.failAll('The QR code renderer was closed')
    if (worker) await worker.terminate()
  }

  private pump(): void {
    if (this.current || this.waitingCount === 0) return
    if (!this.worker) {
      this.spawn()
      return
    }
    if (!this.ready) return
    const job = this.take()
    const timer = setTimeout(() => this.lose(this.worker, 'Drawing a QR code took too long'), this.timeoutMs)
    this.current = { job, timer }
    this.worker.postMessage({ id: job.id, text: job.text })
  }

  /** The next job of the waiting client served longest ago (one never served first). */
  private take(): Job {
    let next: string | undefined
    for (const client of this.waiting.keys()) {
      if (next === undefined || (this.servedAt.get(client) ?? -1) < (this.servedAt.get(next) ?? -1)) next = client
    }
    const queue = this.waiting.get(next!)!
    const job = queue.shift()!
    if (queue.length === 0) this.waiting.delete(next!)
    this.waitingCount--
    this.servedAt.set(next!, this.turn++)
    return job
  }

  private spawn(): void {
    const worker = new Worker(serviceFile('qr-codes/qr-code-worker.mjs'), { workerData: { options: this.options.draw } })
    this.worker = worker
    this.ready = false
    worker.on('message', (reply: WorkerReply) => this.onReply(worker, reply))
    worker.on('error', (error) => this.lose(worker, `The QR code worker failed: ${error.message}`))
    worker.on('exit', () => this.lose(worker, 'The QR code worker stopped'))
    // An idle worker must not keep the process alive; a drawing under way has its timer.
    worker.unref()
  }

  private onReply(worker: Worker, reply: WorkerReply): void {
    if (worker !== this.worker) return
    if (reply.ready) {
      this.ready = true
      this.pump()
      return
    }
    const current = this.current
    if (!current || reply.id !== current.job.id) return
    clearTimeout(current.timer)
    this.current = undefined
    this.forgetIfIdle(current.job.client)
    if (reply.png) current.job.resolve(reply.png)
    else current.job.reject(new Error(`Drawing a QR code failed: ${reply.error ?? 'no picture'}`))
    this.pump()
  }

  /** The worker is gone or stuck: the drawing under way fails, the others go to a new worker. */
  private lose(worker: Worker | undefined, message: string): void {
    if (!worker || worker !== this.worker) return
    this.worker = undefined
    this.ready = false
    void worker.terminate()
    const current = this.current
    this.current = undefined
    if (current) {
      clearTimeout(current.timer)
      this.forgetIfIdle(current.job.client)
      current.job.reject(new Error(message))
    } else if (this.waitingCount > 0) {
      // It never started: failing again and again would spin, so the waiting fail with it.
      this.failAll(message)
      return
    }
    this.pump()
  }

  private forgetIfIdle(client: string): void {
    if (!this.waiting.has(client)) this.servedAt.delete(client)
  }

  private failAll(message: string): void {
    const jobs = [...(this.current ? [this.current.job] : []), ...[...this.waiting.values()].flat()]
    if (this.current) clearTimeout(this.current.timer)
    this.current = undefined
    this.waiting.clear()
    this.servedAt.clear()
    this.waitingCount = 0
    for (const job of jobs) job.reject(new Error(message))
  }
}

const busy = (why: string) =>
  new HttpError('rate_limited', `Too many QR codes asked for at once: ${why}. Try again in a second.`, undefined, { 'Retry-After': '1' })
