import cluster, { type Worker } from 'node:cluster'
import { answerMetricsRequests } from './observability/cluster-metrics'
import { log } from './observability/log'

/**
 * `WORKERS=N`: N processes serve one port (node:cluster hands them connections in turn). They
 * share nothing in memory: sessions, leases, idempotent responses and rate limits all live in
 * PostgreSQL, so N processes behave as one service, as do several instances behind a load
 * balancer. The primary only forks, restarts a worker that crashed, stops them all on
 * SIGINT/SIGTERM, and gathers their metrics when one is asked for them (cluster-metrics.ts); each
 * worker runs this same script and starts a server as usual.
 */
export interface Workers {
  /** The port every worker listens on. */
  readonly port: number
  /** Sends a message to every worker, now and to each one started later. */
  broadcast(message: unknown): void
  /** Stops every worker (each finishes its requests) and resolves once all have exited. */
  close(): Promise<void>
}

/**
 * A crashed worker is started again after a pause that doubles with each crash in a row (from
 * RESTART_FIRST_MS up to RESTART_MAX_MS) and goes back to the first after RESTART_CALM_MS without a
 * crash. The primary never gives up: a worker that cannot start because the database is
 * down (restarting, failing over) starts once it is back, instead of the service being left with a
 * live primary and no worker a supervisor would notice.
 */
const RESTART_FIRST_MS = 250
const RESTART_MAX_MS = 30_000
const RESTART_CALM_MS = 60_000
const STOP_GRACE_MS = 10_000

export const isClusterPrimary = () => cluster.isPrimary
export const isClusterWorker = () => cluster.isWorker

/** In the primary: forks `count` workers and resolves once all of them listen. */
export function forkWorkers(count: number, env: Record<string, string> = {}): Promise<Workers> {
  return new Promise((resolve, reject) => {
    const messages: unknown[] = []
    const pending = new Set<NodeJS.Timeout>()
    let port: number | undefined
    let ready = 0
    let started = false
    let stopping = false
    let crashesInARow = 0
    let lastCrash = 0
    const stopAnswering = answerMetricsRequests()

    const fork = () => {
      const worker = cluster.fork(env)
      worker.once('listening', (address) => {
        port ??= address.port
        for (const message of messages) worker.send(message as object)
        if (!started && ++ready === count) {
          started = true
          resolve(workers)
        }
      })
      worker.once('exit', (code, signal) => onExit(worker, code, signal))
    }

    const onExit = (worker: Worker, code: number | null, signal: string | null) => {
      // Exit code 0: the worker stopped on purpose (a signal reached the whole process group).
      if (stopping || code === 0) return
      if (!started) {
        // A worker that cannot start the first time will not start the next: say why and stop.
        stopping = true
        stopAnswering()
        void stopAll().then(() => reject(new Error(`A service worker stopped before it could listen (exit ${code ?? signal}).`)))
        return
      }
      if (Date.now() - lastCrash > RESTART_CALM_MS) crashesInARow = 0
      lastCrash = Date.now()
      const pause = Math.min(RESTART_MAX_MS, RESTART_FIRST_MS * 2 ** crashesInARow)
      crashesInARow++
      log().error({ worker: worker.id, exit: code ?? signal, restartInMs: pause }, 'a worker exited; starting another')
      const timer = setTimeout(() => {
        pending.delete(timer)
        if (!stopping) fork()
      }, pause)
      pending.add(timer)
    }

    const stopAll = async () => {
      const running = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined)
      await Promise.all(
        running.map(
          (worker) =>
            new Promise<void>((done) => {
              if (worker.isDead()) return done()
              const force = setTimeout(() => worker.kill('SIGKILL'), STOP_GRACE_MS)
              worker.once('exit', () => {
                clearTimeout(force)
                done()
              })
              // The worker closes its server and database on SIGTERM, finishing requests in flight.
              worker.kill('SIGTERM')
            }),
        ),
      )
    }

    const workers: Workers = {
      get port() {
        return port ?? 0
      },
      broadcast(message) {
        messages.push(message)
        for (const worker of Object.values(cluster.workers ?? {})) worker?.send(message as object)
      },
      async close() {
        stopping = true
        for (const timer of pending) clearTimeout(timer)
        stopAnswering()
        await stopAll()
      },
    }
    for (let i = 0; i < count; i++) fork()
  })
}

/** In a worker: calls `handler` with each message the primary broadcasts. */
export function onPrimaryMessage(handler: (message: unknown) => void): void {
  if (cluster.isWorker) process.on('message', handler)
}
