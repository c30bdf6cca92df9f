import { Worker } from 'node:worker_threads'
import { serviceFile } from '../../service-files'

/**
 * Owns the worker thread that runs flow code, so code never runs on the service's event loop.
 * Jobs run one at a time, in order. A job that outlives its deadline by GRACE_MS (a single
 * built-in call such as a huge `repeat` can, since QuickJS only checks its interrupt between
 * operations) is ended by terminating the worker; the next job starts a fresh one.
 */
export interface SandboxJob {
  source: string
  timeoutMs: number
  memoryBytes: number
}

/** What a run of flow code came to. */
export type SandboxOutcome =
  | { status: 'ok'; value: unknown }
  /** The result is a function or a symbol: not something a variable can hold. */
  | { status: 'not-a-value'; type: string }
  | { status: 'syntax-error' | 'reference-error' | 'error'; message: string }
  | { status: 'timeout' | 'out-of-memory' }

export interface SandboxRun {
  outcome: SandboxOutcome
  /** Time the job spent running in the worker, queueing excluded. */
  runMs: number
}

/** Extra time the worker gets to report an interrupted run before it is killed. */
const GRACE_MS = 250
/** Loading the WebAssembly module takes a few hundred milliseconds at most, even on a busy host. */
const STARTUP_TIMEOUT_MS = 15_000
/** Jobs waiting beyond this are refused at once rather than piling up behind slow code. */
const MAX_QUEUED_JOBS = 200
/** The worker's own JavaScript heap (results pass through it); the sandbox heap is capped inside. */
const WORKER_HEAP_MB = 256

interface Pending extends SandboxJob {
  id: number
  resolve: (run: SandboxRun) => void
}

interface WorkerReply {
  ready?: boolean
  id?: number
  outcome?: SandboxOutcome
  recycle?: boolean
}

export class SandboxHost {
  private worker: Worker | undefined
  private ready = false
  private readonly queue: Pending[] = []
  private current: { job: Pending; startedAt: number; timer: NodeJS.Timeout } | undefined
  private startupTimer: NodeJS.Timeout | undefined
  private nextId = 1
  private readonly maxQueuedJobs: number

  constructor(options: { maxQueuedJobs?: number } = {}) {
    this.maxQueuedJobs = options.maxQueuedJobs ?? MAX_QUEUED_JOBS
  }

  run(job: SandboxJob): Promise<SandboxRun> {
    if (this.queue.length >= this.maxQueuedJobs) {
      return Promise.resolve({ outcome: { status: 'error', message: 'The code sandbox is busy' }, runMs: 0 })
    }
    return new Promise((resolve) => {
      this.queue.push({ ...job, id: this.nextId++, resolve })
      this.pump()
    })
  }

  /** Stops the worker (tests, shutdown); queued jobs fail, later jobs start a new worker. */
  async close(): Promise<void> {
    const worker = this.worker
    this.failAll('The code sandbox was shut down')
    if (worker) await worker.terminate()
  }

  private pump(): void {
    if (this.current || this.queue.length === 0) return
    if (!this.worker) {
      this.spawn()
      return
    }
    if (!this.ready) return
    const job = this.queue.shift()!
    const timer = setTimeout(() => this.killCurrent(), job.timeoutMs + GRACE_MS)
    this.current = { job, startedAt: Date.now(), timer }
    this.worker.postMessage({ id: job.id, source: job.source, timeoutMs: job.timeoutMs, memoryBytes: job.memoryBytes })
  }

  private spawn(): void {
    const worker = new Worker(serviceFile('engine/sandbox/sandbox-worker.mjs'), {
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    })
    this.worker = worker
    this.ready = false
    this.startupTimer = setTimeout(() => this.failAll('The code sandbox did not start'), STARTUP_TIMEOUT_MS)
    worker.on('message', (reply: WorkerReply) => this.onReply(worker, reply))
    worker.on('error', () => this.onWorkerLost(worker))
    worker.on('exit', () => this.onWorkerLost(worker))
    // After the listeners: adding a 'message' listener refs the worker's port again. The timers
    // of pending jobs keep the process alive while they run; an idle worker must not.
    worker.unref()
  }

  private onReply(worker: Worker, reply: WorkerReply): void {
    if (worker !== this.worker) return
    if (reply.ready) {
      clearTimeout(this.startupTimer)
      this.ready = true
      this.pump()
      return
    }
    const current = this.current
    if (!current || reply.id !== current.job.id || !reply.outcome) return
    clearTimeout(current.timer)
    this.current = undefined
    if (reply.recycle) this.discardWorker()
    current.job.resolve({ outcome: reply.outcome, runMs: Date.now() - current.startedAt })
    this.pump()
  }

  private killCurrent(): void {
    const current = this.current
    if (!current) return
    this.current = undefined
    this.discardWorker()
    current.job.resolve({ outcome: { status: 'timeout' }, runMs: Date.now() - current.startedAt })
    this.pump()
  }

  /** The worker died (out of heap, crashed): the running job fails, the queue moves to a new one. */
  private onWorkerLost(worker: Worker): void {
    if (worker !== this.worker) return
    const current = this.current
    this.current = undefined
    this.discardWorker()
    if (current) {
      clearTimeout(current.timer)
      current.job.resolve({
        outcome: { status: 'error', message: 'The code stopped the sandbox' },
        runMs: Date.now() - current.startedAt,
      })
    } else if (!this.ready) {
      this.failAll('The code sandbox could not start')
      return
    }
    this.pump()
  }

  private discardWorker(): void {
    const worker = this.worker
    this.worker = undefined
    this.ready = false
    clearTimeout(this.startupTimer)
    if (worker) void worker.terminate()
  }

  private failAll(message: string): void {
    const jobs = this.current ? [this.current.job, ...this.queue] : [...this.queue]
    if (this.current) clearTimeout(this.current.timer)
    this.current = undefined
    this.queue.length = 0
    this.discardWorker()
    for (const job of jobs) job.resolve({ outcome: { status: 'error', message }, runMs: 0 })
  }
}
