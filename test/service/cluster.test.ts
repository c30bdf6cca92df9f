import { get } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { databaseUrl } from './helpers/database'
import { postgresBin, startPostgresServer } from './helpers/postgres-server'
import { childProcesses, startServiceProcess } from './helpers/service-process'
import { until } from './helpers/until'

/**
 * `WORKERS=2` through a worker's crash while its database is away: the soak found the primary
 * giving up (stopping every worker, itself left running with none) when a crashed worker's
 * replacement could not reach the database that was restarting at that moment.
 */
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A request on a connection of its own: node:cluster hands each connection to the next worker. */
const status = (url: string) =>
  new Promise<number>((resolve) => {
    get(url, { agent: false }, (response) => {
      response.resume()
      resolve(response.statusCode ?? 0)
    }).once('error', () => resolve(0))
  })

describe.skipIf(!databaseUrl)('WORKERS=2 when a worker dies while the database is away', () => {
  it('starts the worker again once the database is back, and serves on every worker', async () => {
    const bin = await postgresBin()
    if (!bin) throw new Error('The PostgreSQL leg needs the PostgreSQL programs (see .ci/run)')
    const postgres = await startPostgresServer(bin)
    cleanups.push(() => postgres.close())
    const service = await startServiceProcess({ DATABASE_URL: postgres.url, WORKERS: '2' })
    cleanups.push(async () => void (await service.stop()))
    const [victim, survivor] = childProcesses(service.pid)
    expect(survivor).toBeDefined()

    await postgres.stop()
    process.kill(victim!, 'SIGKILL')
    // Its replacement starts, cannot reach the database and exits: the primary must try again.
    await until(() => service.stdout().split('a worker exited').length > 2)
    await postgres.start()

    await until(async () => childProcesses(service.pid).filter((pid) => pid !== survivor).length === 1)
    await until(async () =>
      (await Promise.all([1, 2, 3, 4].map(() => status(`${service.url}/v1/health/ready`)))).every((code) => code === 200),
    )
    expect(childProcesses(service.pid)).toContain(survivor)
  }, 120_000)
})
