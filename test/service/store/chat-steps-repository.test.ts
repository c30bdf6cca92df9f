import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { useTestDatabase } from '../helpers/database'
import { greetingFlow, importOverHttp, publishOverHttp } from '../helpers/flows'
import { createTestService, type TestService } from '../helpers/service'

const db = useTestDatabase()
let svc: TestService
beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(() => svc.close())

async function startedSession() {
  const flow = await importOverHttp(svc, greetingFlow())
  await publishOverHttp(svc, flow.id)
  return (await svc.call('POST', `/v1/flows/${flow.id}/startChat`)).body as { sessionId: string; resultId: string }
}

const turn = (sessionId: string, leaseOwner: string) =>
  svc.store.chatSteps.openTurn({ sessionId, leaseOwner, leaseMs: 60_000, idempotencyKey: undefined })

const commit = (sessionId: string, leaseOwner: string, value: string) =>
  svc.store.chatSteps.commitAnswer({
    sessionId,
    leaseOwner,
    stateJson: JSON.stringify({ variables: { vName: value }, awaiting: null, visitedBlockCount: 3 }),
    answers: [{ blockId: 'b2', groupId: 'g1', variableId: 'vName', value }],
    ended: true,
    deliveryId: `delivery-${value}`,
    timestamp: svc.clock.now().toISOString(),
    expiresAt: svc.clock.now().toISOString(),
    idempotency: { key: `k-${value}`, requestHash: 'h', response: `{"by":"${value}"}` },
  })

describe('session leases', () => {
  it('let one step at a time hold a session, and a lease lost to expiry writes nothing', async () => {
    const { sessionId, resultId } = await startedSession()
    expect((await turn(sessionId, 'first')).leased).toBeDefined()
    expect((await turn(sessionId, 'second')).leased).toBeUndefined()

    // The first holder stalls past its lease; the second takes the session over.
    await svc.store.database.query(`UPDATE ${svc.store.tables.sessions} SET lease_expires_at = clock_timestamp() - interval '1 second'`)
    expect((await turn(sessionId, 'second')).leased).toBeDefined()
    expect(await svc.store.chatSteps.renewLease(sessionId, 'first', 60_000)).toBe(false)
    expect(await commit(sessionId, 'first', 'stale')).toBe(false)
    expect(await svc.store.results.listAnswers(resultId)).toEqual([])
    expect(await svc.store.chatSteps.findIdempotentResponse(sessionId, 'k-stale')).toBeUndefined()

    expect(await commit(sessionId, 'second', 'Ada')).toBe(true)
    expect(await svc.store.results.listAnswers(resultId)).toMatchObject([{ value: 'Ada', sessionId }])
    expect(await svc.store.results.findForFlow(resultId, (await svc.store.sessions.findById(sessionId))!.flowId)).toMatchObject({
      variables: { vName: 'Ada' },
      isCompleted: true,
    })
    // The commit released the lease: the next step takes it at once.
    expect((await turn(sessionId, 'third')).leased).toMatchObject({ step: 1 })
  })

  it('reports the stored response of a key, and no session for an unknown id', async () => {
    const { sessionId } = await startedSession()
    await turn(sessionId, 'owner')
    await commit(sessionId, 'owner', 'Ada')
    const replay = await svc.store.chatSteps.openTurn({ sessionId, leaseOwner: 'x', leaseMs: 1000, idempotencyKey: 'k-Ada' })
    expect(replay.idempotent).toEqual({ requestHash: 'h', response: '{"by":"Ada"}' })
    expect((await turn('no-such-session', 'owner')).session).toBeUndefined()
  })
})
