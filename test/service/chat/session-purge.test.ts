import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { purgeExpired, SESSION_PURGE_GRACE_MS } from '../../../src/service/chat/session-purge'
import { useTestDatabase } from '../helpers/database'
import { greetingFlow, importOverHttp, publishOverHttp } from '../helpers/flows'
import { createTestService, type TestService } from '../helpers/service'

const db = useTestDatabase()
let svc: TestService
beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(() => svc.close())

const settings = { graceMs: SESSION_PURGE_GRACE_MS, idleBucketMs: 60 * 60 * 1000, batch: 2 }
const start = (ref: string, json?: unknown) => svc.call('POST', `/v1/flows/${ref}/startChat`, json ? { json } : {})
const answer = (sessionId: string, message: string) =>
  svc.call('POST', `/v1/sessions/${sessionId}/continueChat`, { json: { message }, headers: { 'Idempotency-Key': `k-${message}` } })

describe('purgeExpired', () => {
  it('deletes sessions expired past the grace period, keeping their answers and results', async () => {
    const flow = await importOverHttp(svc, greetingFlow())
    await publishOverHttp(svc, flow.id)
    const old = await Promise.all([1, 2, 3].map(async () => (await start(flow.id)).body))
    for (const session of old) await answer(session.sessionId, 'Ada')
    const ttlMs = svc.config.sessionTtlSeconds * 1000
    svc.clock.advance(ttlMs + SESSION_PURGE_GRACE_MS / 2)
    const recent = (await start(flow.id)).body

    // Expired, but still within the grace period: kept (it answers 410, not 404).
    expect(await purgeExpired(svc.store, svc.clock.now(), settings)).toMatchObject({ sessions: 0 })
    expect((await answer(old[0].sessionId, '36')).status).toBe(410)

    svc.clock.advance(SESSION_PURGE_GRACE_MS)
    expect(await purgeExpired(svc.store, svc.clock.now(), settings)).toMatchObject({ sessions: 3 })
    for (const session of old) {
      expect(await svc.store.sessions.findById(session.sessionId)).toBeUndefined()
      expect((await answer(session.sessionId, 'again')).status).toBe(404)
      const answers = await svc.store.results.listAnswers(session.resultId)
      expect(answers).toMatchObject([{ value: 'Ada', sessionId: session.sessionId }])
    }
    const keys = await svc.store.database.query(`SELECT * FROM ${svc.store.tables.idempotencyKeys}`)
    expect(keys).toEqual([])
    expect(await svc.store.sessions.findById(recent.sessionId)).toBeDefined()

    // A returning visitor still resumes the purged session's result.
    const resumed = await start(flow.id, { resultId: old[1].resultId })
    expect(resumed.body.resultId).toBe(old[1].resultId)
  })

  it('leaves alone an expired session that a step still holds', async () => {
    const flow = await importOverHttp(svc, greetingFlow())
    await publishOverHttp(svc, flow.id)
    const { sessionId } = (await start(flow.id)).body
    await svc.store.database.query(
      `UPDATE ${svc.store.tables.sessions} SET lease_owner = 'busy', lease_expires_at = clock_timestamp() + interval '1 minute' WHERE id = $1`,
      [sessionId],
    )
    svc.clock.advance(svc.config.sessionTtlSeconds * 1000 + 2 * SESSION_PURGE_GRACE_MS)
    expect(await purgeExpired(svc.store, svc.clock.now(), settings)).toMatchObject({ sessions: 0 })
    expect(await svc.store.sessions.findById(sessionId)).toBeDefined()
  })

  it('forgets rate-limit buckets unused long enough to be full again', async () => {
    await svc.store.rateLimits.consume('chat:203.0.113.1', { perMinute: 60, burst: 5 }, svc.clock.now())
    expect(await purgeExpired(svc.store, svc.clock.now(), settings)).toMatchObject({ buckets: 0 })
    svc.clock.advance(2 * 60 * 60 * 1000)
    expect(await purgeExpired(svc.store, svc.clock.now(), settings)).toMatchObject({ buckets: 1 })
  })
})
