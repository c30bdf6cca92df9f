import { afterEach, describe, expect, it } from 'vitest'
import { errorBodySchema } from '../../../src/protocol/index'
import { uploadPath } from '../../../src/protocol/uploads'
import { HttpError } from '../../../src/service/http/errors'
import { RateLimiter } from '../../../src/service/http/rate-limit'
import { TestClock } from '../helpers/clock'
import { useTestDatabase } from '../helpers/database'
import { fileInputFlow, greetingFlow, importOverHttp, publishOverHttp } from '../helpers/flows'
import { createTestService, TEST_CONFIG, type TestService } from '../helpers/service'
import { snapshotTables } from '../helpers/snapshot'
import { uploadService } from '../uploads/upload-helpers'
import { SAME_CLIENT } from './fixtures/client-networks'

async function refusal(attempt: Promise<void>): Promise<HttpError | undefined> {
  try {
    await attempt
    return undefined
  } catch (error) {
    if (error instanceof HttpError) return error
    throw error
  }
}

const db = useTestDatabase()
let svc: TestService
afterEach(() => svc.close())

describe('RateLimiter', () => {
  const limiterOf = (config: { perMinute: number; burst: number }, clock = new TestClock()) =>
    new RateLimiter(config, clock.now, svc.store.rateLimits)

  it('allows a burst, then refuses with the wait until the next token', async () => {
    svc = await createTestService(db)
    const clock = new TestClock()
    const limiter = limiterOf({ perMinute: 6, burst: 2 }, clock)
    expect(await refusal(limiter.consume('a'))).toBeUndefined()
    expect(await refusal(limiter.consume('a'))).toBeUndefined()
    const refused = await refusal(limiter.consume('a'))
    expect(refused?.code).toBe('rate_limited')
    expect(refused?.headers['Retry-After']).toBe('10')
    clock.advance(4_000)
    expect((await refusal(limiter.consume('a')))?.headers['Retry-After']).toBe('6')
    clock.advance(6_000)
    expect(await refusal(limiter.consume('a'))).toBeUndefined()
  })

  it('keeps one bucket per key', async () => {
    svc = await createTestService(db)
    const limiter = limiterOf({ perMinute: 1, burst: 1 })
    await limiter.consume('a')
    expect(await refusal(limiter.consume('a'))).toBeDefined()
    expect(await refusal(limiter.consume('b'))).toBeUndefined()
  })

  it('shares its buckets with every limiter on the same database (other processes)', async () => {
    svc = await createTestService(db)
    const clock = new TestClock()
    const [here, elsewhere] = [limiterOf({ perMinute: 60, burst: 3 }, clock), limiterOf({ perMinute: 60, burst: 3 }, clock)]
    const verdicts = await Promise.all([here, elsewhere, here, elsewhere, here, elsewhere].map((l) => refusal(l.consume('shared'))))
    expect(verdicts.filter((v) => v === undefined)).toHaveLength(3)
  })

  it('refuses a key out of tokens again from memory until its token is due, without the database', async () => {
    svc = await createTestService(db)
    const clock = new TestClock()
    const limiter = limiterOf({ perMinute: 6, burst: 1 }, clock)
    await limiter.consume('flood')
    expect((await refusal(limiter.consume('flood')))?.headers['Retry-After']).toBe('10')
    // Its bucket gone from the database: still refused, for what is left of the wait.
    await svc.store.database.query(`DELETE FROM ${svc.store.tables.rateLimits}`)
    clock.advance(4_000)
    expect((await refusal(limiter.consume('flood')))?.headers['Retry-After']).toBe('6')
    expect((await limiter.refusal('flood'))?.headers['Retry-After']).toBe('6')
    expect(await svc.store.database.query(`SELECT * FROM ${svc.store.tables.rateLimits}`)).toEqual([])
    clock.advance(6_000)
    expect(await refusal(limiter.consume('flood'))).toBeUndefined()
  })

  it('never refuses when the limit is 0 (off), and stores nothing then', async () => {
    svc = await createTestService(db)
    const limiter = limiterOf({ perMinute: 0, burst: 1 })
    for (let i = 0; i < 100; i++) await limiter.consume('a')
    expect(await svc.store.database.query(`SELECT * FROM ${svc.store.tables.rateLimits}`)).toEqual([])
  })
})

describe('429 over HTTP', () => {
  const limited = (chat: { perMinute: number; burst: number }, management = { perMinute: 0, burst: 1 }) =>
    createTestService(db, { config: { rateLimits: { chat, management } } })

  it('limits chat per client address and says when to retry', async () => {
    svc = await limited({ perMinute: 6, burst: 2 })
    const flow = await importOverHttp(svc, greetingFlow())
    await publishOverHttp(svc, flow.id)
    // One trusted proxy (the test config): it appends the address it saw; what the client sent stays on the left.
    const startFrom = (ip: string) =>
      svc.call('POST', `/v1/flows/${flow.id}/startChat`, { headers: { 'x-forwarded-for': `10.9.9.9, ${ip}` } })

    expect((await startFrom('203.0.113.1')).status).toBe(200)
    expect((await startFrom('203.0.113.1')).status).toBe(200)
    const before = await snapshotTables(svc.store)
    const refused = await startFrom('203.0.113.1')
    expect(refused.status).toBe(429)
    expect(errorBodySchema.parse(refused.body).error.code).toBe('rate_limited')
    expect(refused.headers.get('retry-after')).toBe('10')
    expect(await snapshotTables(svc.store)).toBe(before)

    expect((await startFrom('203.0.113.2')).status).toBe(200)
    svc.clock.advance(10_000)
    expect((await startFrom('203.0.113.1')).status).toBe(200)
  })

  it.each(SAME_CLIENT)('counts one client once: $tries', async ({ addresses, apart }) => {
    svc = await limited({ perMinute: 1, burst: addresses.length - 1 })
    const flow = await importOverHttp(svc, greetingFlow())
    await publishOverHttp(svc, flow.id)
    const startFrom = (ip: string) => svc.call('POST', `/v1/flows/${flow.id}/startChat`, { headers: { 'x-forwarded-for': ip } })
    const statuses = []
    for (const address of addresses) statuses.push((await startFrom(address)).status)
    expect(statuses).toEqual([...addresses.slice(1).map(() => 200), 429])
    expect((await startFrom(apart)).status).toBe(200)
  })

  it('refuses failed authentications from one IPv6 /64 together, whichever of its addresses sends them', async () => {
    svc = await createTestService(db, { config: { authFailureLimit: { perMinute: 1, burst: 3 } } })
    const guess = (ip: string) => svc.call('GET', '/v1/flows', { token: 'fs_sk_guess', headers: { 'x-forwarded-for': ip } })
    const statuses = []
    for (let n = 1; n <= 5; n++) statuses.push((await guess(`2001:db8:9:9::${n.toString(16)}`)).status)
    expect(statuses).toEqual([401, 401, 401, 429, 429])
    expect((await guess('2001:db8:9:a::1')).status).toBe(401)
  })

  it('refuses a client that ignores its Retry-After again before any statement, on chat steps and uploads', async () => {
    const uploads = await uploadService(db, { rateLimits: { chat: { perMinute: 6, burst: 2 }, management: { perMinute: 0, burst: 1 } } })
    svc = uploads
    const flow = await importOverHttp(svc, fileInputFlow())
    await publishOverHttp(svc, flow.id)
    const from = { 'x-forwarded-for': '203.0.113.77' }
    const started = await svc.call('POST', `/v1/flows/${flow.id}/startChat`, { headers: from })
    const upload = () =>
      svc.call('POST', `${uploadPath(started.body.sessionId)}?name=a.txt`, {
        raw: 'hello',
        headers: { ...from, 'content-type': 'text/plain' },
      })
    expect((await upload()).status).toBe(201)
    expect((await upload()).headers.get('retry-after')).toBe('10')
    // The bucket gone from the database, a client asking again at once is still refused: from memory.
    await svc.store.database.query(`DELETE FROM ${svc.store.tables.rateLimits}`)
    svc.clock.advance(4_000)
    for (const refused of [await upload(), await svc.call('POST', `/v1/flows/${flow.id}/startChat`, { headers: from })]) {
      expect(refused.status).toBe(429)
      expect(refused.headers.get('retry-after')).toBe('6')
    }
    expect(await svc.store.database.query(`SELECT * FROM ${svc.store.tables.rateLimits}`)).toEqual([])
    // Asking when told, it is answered from the database again.
    svc.clock.advance(6_000)
    expect((await svc.call('POST', `/v1/flows/${flow.id}/startChat`, { headers: from })).status).toBe(200)
  })

  it('never believes the entries a client writes into X-Forwarded-For', async () => {
    svc = await createTestService(db, {
      config: { trustProxyHops: 2, rateLimits: { ...TEST_CONFIG.rateLimits, chat: { perMinute: 1, burst: 1 } } },
    })
    const flow = await importOverHttp(svc, greetingFlow())
    await publishOverHttp(svc, flow.id)
    // Behind a CDN and a load balancer: "<client's own entries>, <client as the CDN saw it>, <CDN>".
    const startAs = (spoofed: string) =>
      svc.call('POST', `/v1/flows/${flow.id}/startChat`, {
        headers: { 'x-forwarded-for': `${spoofed}, 203.0.113.7, 198.51.100.250` },
      })
    expect((await startAs('1.1.1.1')).status).toBe(200)
    expect((await startAs('2.2.2.2')).status).toBe(429)
    expect((await startAs('3.3.3.3, 4.4.4.4')).status).toBe(429)
  })

  it('ignores X-Forwarded-For unless a trusted proxy is configured', async () => {
    svc = await createTestService(db, {
      config: { trustProxyHops: 0, rateLimits: { ...TEST_CONFIG.rateLimits, chat: { perMinute: 1, burst: 1 } } },
    })
    const flow = await importOverHttp(svc, greetingFlow())
    await publishOverHttp(svc, flow.id)
    const startFrom = (ip: string) => svc.call('POST', `/v1/flows/${flow.id}/startChat`, { headers: { 'x-forwarded-for': ip } })
    expect((await startFrom('198.51.100.1')).status).toBe(200)
    expect((await startFrom('198.51.100.2')).status).toBe(429)
  })

  it('limits management per token', async () => {
    svc = await limited({ perMinute: 0, burst: 1 }, { perMinute: 60, burst: 3 })
    const flow = await importOverHttp(svc, greetingFlow())
    await publishOverHttp(svc, flow.id)
    const get = (token: string) => svc.call('GET', `/v1/flows/${flow.id}`, { token })

    expect((await get(svc.tokens.secret)).status).toBe(200)
    const refused = await get(svc.tokens.secret)
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('1')

    const imported = await svc.call('POST', '/v1/flows/import', {
      token: svc.tokens.secret,
      json: { workspaceId: 'demo', flow: greetingFlow() },
    })
    expect(imported.status).toBe(429)
    expect(await svc.store.flows.listByWorkspace()).toHaveLength(1)

    const other = await svc.call('GET', `/v1/flows/${flow.id}/publishedFlow`, { token: svc.tokens.otherSecret })
    expect(other.status).toBe(404) // its own bucket: refused as unknown to that workspace, not for the rate
  })

  it('limits publishedFlow reads with a publishable token per visitor, not per token', async () => {
    svc = await limited({ perMinute: 1, burst: 1 })
    const flow = await importOverHttp(svc, greetingFlow())
    await publishOverHttp(svc, flow.id)
    const read = (ip: string) =>
      svc.call('GET', `/v1/flows/${flow.id}/publishedFlow`, {
        token: svc.tokens.publishable,
        headers: { 'x-forwarded-for': ip },
      })
    expect((await read('192.0.2.1')).status).toBe(200)
    expect((await read('192.0.2.2')).status).toBe(200)
    const refused = await read('192.0.2.1')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('access-control-allow-origin')).toBe('*')
  })
})
