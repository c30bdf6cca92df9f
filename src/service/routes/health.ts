import type { Hono } from 'hono'
import type { Logger } from 'pino'
import { logFor } from '../observability/request-context'
import type { Database } from '../store/database'

/**
 * Health for load balancers and orchestrators. Liveness (`/v1/health/live`): the process answers.
 * Readiness (`/v1/health/ready`, and `/v1/health`, which container health checks and load
 * balancers already ask): the process can serve, its database answers a query in time; when it
 * cannot, `503` with the failing part named, never a `500`. When only uploads cannot be taken (no
 * room beyond the disk's reserve), conversations still can: `200` with `degraded` and the part
 * named, so monitoring sees it and no load balancer takes the process out of service for it.
 */
const DATABASE_TIMEOUT_MS = 2_000

export function registerHealthRoutes(app: Hono, deps: { database: Database; uploads?: { check(log: Logger): Promise<string> } }): void {
  app.get('/v1/health/live', (c) => c.json({ status: 'ok' }))
  for (const path of ['/v1/health/ready', '/v1/health']) {
    app.get(path, async (c) => {
      const log = logFor(c)
      const [database, uploads = 'ok'] = await Promise.all([databaseCheck(deps.database, log), deps.uploads?.check(log)])
      const checks = uploads === 'ok' ? { database } : { database, uploads }
      if (database !== 'ok') return c.json({ status: 'unavailable', checks }, 503)
      if (uploads !== 'ok') return c.json({ status: 'degraded', checks })
      return c.json({ status: 'ok' })
    })
  }
}

/** `ok`, or what is wrong in words safe for anyone to read (the cause goes to the log). */
function databaseCheck(database: Database, log: Logger): Promise<string> {
  return new Promise((resolve) => {
    let answered = false
    const answer = (check: string) => {
      answered = true
      clearTimeout(timer)
      resolve(check)
    }
    const timer = setTimeout(() => {
      log.warn(`readiness: the database did not answer within ${DATABASE_TIMEOUT_MS / 1000} s`)
      answer(`no answer within ${DATABASE_TIMEOUT_MS / 1000} s`)
    }, DATABASE_TIMEOUT_MS)
    database.query('SELECT 1').then(
      () => answer('ok'),
      (error: unknown) => {
        // A failure after the timeout says nothing the probe was not told already.
        if (answered) return
        log.warn({ err: error }, 'readiness: the database cannot be reached')
        answer('unreachable')
      },
    )
  })
}
