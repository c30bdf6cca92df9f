import type { AddressInfo } from 'node:net'
import { createServer, type Socket } from 'node:net'
import { Hono } from 'hono'
import { afterEach, describe, expect, it } from 'vitest'
import { registerHealthRoutes } from '../../../src/service/routes/health'
import { openPgDatabase } from '../../../src/service/store/pg-database'
import { databaseUrl, dropSchema, type TestDatabase, useTestDatabase } from '../helpers/database'
import { captureLogs, type LogLine } from '../helpers/logs'
import { openTemplatedPglite } from '../helpers/pglite-template'
import { postgresBin, startPostgresServer } from '../helpers/postgres-server'
import { createTestService } from '../helpers/service'
import { startServiceProcess } from '../helpers/service-process'

/**
 * Liveness says the process answers; readiness (and `/v1/health`, which container health checks
 * and load balancers ask) says it can serve: 503 naming the database when the database cannot be
 * reached, never a 500.
 */
const db = useTestDatabase()
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe('health', () => {
  it('answers ok on every probe while the service and its database answer', async () => {
    const svc = await createTestService(db)
    cleanups.push(() => svc.close())
    for (const path of ['/v1/health/live', '/v1/health/ready', '/v1/health']) {
      const res = await svc.call('GET', path)
      expect([path, res.status, res.body]).toEqual([path, 200, { status: 'ok' }])
    }
  })

  it('is not ready, naming the database, once the database is gone; still alive', async () => {
    // A database of its own, closed under the service.
    const own: TestDatabase = { database: databaseUrl ? openPgDatabase(databaseUrl, 2) : await openTemplatedPglite(), kind: db.kind }
    const svc = await createTestService(own)
    cleanups.push(async () => {
      if (databaseUrl) await dropSchema(db.database, svc.schema)
    })
    await own.database.close()

    const logs = captureLogs()
    cleanups.push(async () => logs.restore())
    for (const path of ['/v1/health/ready', '/v1/health']) {
      const res = await svc.call('GET', path)
      expect([path, res.status, res.body]).toEqual([path, 503, { status: 'unavailable', checks: { database: 'unreachable' } }])
      expect(res.headers.get('cache-control')).toBe('no-store')
    }
    const live = await svc.call('GET', '/v1/health/live')
    expect([live.status, live.body]).toEqual([200, { status: 'ok' }])

    const warnings = logs.lines.filter((line) => line.level === 'warn')
    expect(warnings.map((line) => line.msg)).toEqual([
      'readiness: the database cannot be reached',
      'readiness: the database cannot be reached',
    ])
    const probes = logs.lines.filter((line) => line.msg === 'request')
    expect(probes.map((line) => [line.level, line.status])).toEqual([
      ['info', 503],
      ['info', 503],
      ['debug', 200],
    ])
  })

  it('is not ready when the database takes the connection and never answers', async () => {
    // A server that accepts connections and says nothing, as a database stuck behind a firewall.
    const sockets = new Set<Socket>()
    const silent = createServer((socket) => void sockets.add(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as AddressInfo
    const database = openPgDatabase(`postgres://flows@127.0.0.1:${port}/flows`)
    cleanups.push(async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise((resolve) => silent.close(resolve))
      await database.close().catch(() => undefined)
    })

    const logs = captureLogs()
    cleanups.push(async () => logs.restore())
    const app = new Hono()
    registerHealthRoutes(app, { database })
    const res = await app.request('/v1/health/ready')
    expect(res.status).toBe(503)
    expect(await res.json()).toEqual({ status: 'unavailable', checks: { database: 'no answer within 2 s' } })
    expect((await app.request('/v1/health/live')).status).toBe(200)
    expect(logs.lines.map((line) => [line.level, line.msg])).toEqual([['warn', 'readiness: the database did not answer within 2 s']])
  })
})

describe.skipIf(!databaseUrl)('health of a service process whose PostgreSQL server stops', () => {
  it('answers 503 naming the database while the server is stopped, stays alive, and is ready again once it is back', async () => {
    const bin = await postgresBin()
    if (!bin) throw new Error('The PostgreSQL leg needs the PostgreSQL programs (see .ci/run)')
    const postgres = await startPostgresServer(bin)
    cleanups.push(() => postgres.close())
    const service = await startServiceProcess({ DATABASE_URL: postgres.url, NODE_ENV: 'production', LOG_LEVEL: 'debug' })
    cleanups.push(async () => void (await service.stop()))
    const probe = async (path: string, requestId: string) => {
      const res = await fetch(`${service.url}${path}`, { headers: { 'x-request-id': requestId } })
      return [path, res.status, await res.json()]
    }
    const ok = { status: 'ok' }
    const down = { status: 'unavailable', checks: { database: 'unreachable' } }

    expect(await probe('/v1/health/ready', 'before-00000001')).toEqual(['/v1/health/ready', 200, ok])
    await postgres.stop()
    expect(await probe('/v1/health/ready', 'stopped-00000001')).toEqual(['/v1/health/ready', 503, down])
    expect(await probe('/v1/health', 'stopped-00000002')).toEqual(['/v1/health', 503, down])
    expect(await probe('/v1/health/live', 'stopped-00000003')).toEqual(['/v1/health/live', 200, ok])
    await postgres.start()
    expect(await probe('/v1/health/ready', 'after-000000001')).toEqual(['/v1/health/ready', 200, ok])

    // The cause is in the log, on the probe's own line: JSON, the id the probe sent, no stack.
    const lines = service
      .stdout()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as LogLine)
    const cause = lines.filter((line) => line.clientRequestId === 'stopped-00000001' && line.level === 'warn')
    expect(cause).toEqual([
      expect.objectContaining({ msg: 'readiness: the database cannot be reached', err: expect.objectContaining({ code: 'ECONNREFUSED' }) }),
    ])
    expect(cause[0]!.err).not.toHaveProperty('stack')
    expect(
      lines.filter((line) => line.msg === 'request' && line.clientRequestId?.startsWith('stopped-')).map((line) => line.status),
    ).toEqual([503, 503, 200])
  }, 60_000)
})
