import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createApp } from '../../../src/service/app'
import { noisyFlow } from '../../../src/service/bench/bench-flow'
import { createEngine } from '../../../src/service/engine/index'
import { SandboxPool } from '../../../src/service/engine/sandbox/sandbox-pool'
import { useTestDatabase } from '../helpers/database'
import { greetingFlow, importOverHttp, publishOverHttp } from '../helpers/flows'
import { call, createTestService, OTHER_WORKSPACE, type TestService } from '../helpers/service'

const db = useTestDatabase()
let svc: TestService
let pool: SandboxPool
beforeEach(async () => {
  pool = new SandboxPool({ size: 1 })
  svc = await createTestService(db, {
    engine: createEngine({ codeTimeoutMs: 100 }),
    app: { sandbox: pool, leaseTiming: { leaseMs: 30_000, waitMs: 400 } },
  })
})
afterEach(async () => {
  await svc.close()
  await pool.close()
})

const start = (ref: string) => svc.call('POST', `/v1/flows/${ref}/startChat`)
const answer = (sessionId: string, message: string, key?: string, app = svc.app) =>
  call(app, 'POST', `/v1/sessions/${sessionId}/continueChat`, {
    json: { message },
    headers: key ? { 'Idempotency-Key': key } : {},
  })

/** Another service process on the same database: its own caches and queues, nothing shared in memory. */
const secondProcess = () => createApp({ store: svc.store, engine: createEngine(), config: svc.config, now: svc.clock.now })

const textBlock = (id: string, text: string) => ({ id, type: 'text', content: { richText: [{ type: 'p', children: [{ text }] }] } })

/** A flow of the other workspace running a little code on start. */
const quickCode = greetingFlow({
  name: 'Quick code',
  groups: [
    {
      id: 'g1',
      title: 'Compute',
      blocks: [
        { id: 'set', type: 'Set variable', options: { variableId: 'vAge', expressionToEvaluate: '6 * 7', isCode: true } },
        textBlock('show', 'Answer {{Age}}'),
        { id: 'q', type: 'text input', options: { variableId: 'vName' } },
      ],
    },
  ],
  edges: [{ id: 'e1', from: { eventId: 'ev1' }, to: { groupId: 'g1' } }],
})

async function publishedIn(workspaceId: string, token: string, flow: unknown) {
  const imported = await svc.call('POST', '/v1/flows/import', { token, json: { workspaceId, flow } })
  expect(imported.status).toBe(200)
  const published = await svc.call('POST', `/v1/flows/${imported.body.flow.id}/publish`, { token })
  expect(published.status).toBe(200)
  return imported.body.flow as { id: string }
}

describe("one tenant's endless code", () => {
  it("costs only that tenant: another tenant's chat with code starts while its loops still run", async () => {
    const noisy = await publishedIn('demo', svc.tokens.secret, noisyFlow)
    const quiet = await publishedIn(OTHER_WORKSPACE, svc.tokens.otherSecret, quickCode)
    const sessions = await Promise.all([1, 2, 3, 4, 5].map(async () => (await start(noisy.id)).body.sessionId as string))

    const pending = new Set(sessions)
    const loops = sessions.map((id) =>
      answer(id, 'spin').then((res) => {
        pending.delete(id)
        return res
      }),
    )
    const other = await start(quiet.id)
    const stillRunning = pending.size

    expect(other.status).toBe(200)
    expect(other.body.messages[0].content.plainText).toBe('Answer 42')
    // Run inside their transactions, these loops would hold the database (every pooled
    // connection, or PGlite's only one) and the code worker for seconds; here the other tenant
    // waited for at most one running job of theirs.
    expect(stillRunning).toBeGreaterThanOrEqual(3)
    for (const res of await Promise.all(loops)) {
      expect(res.status).toBe(200)
      expect(res.body.logs.some((log: { description: string }) => /stopped after 100 ms|used its time/.test(log.description))).toBe(true)
    }
  })
})

describe('answers reaching several service processes', () => {
  it('apply once when the same answer (same key) arrives at two processes at the same moment', async () => {
    const flow = await importOverHttp(svc, greetingFlow())
    await publishOverHttp(svc, flow.id)
    const { sessionId, resultId } = (await start(flow.id)).body
    const other = secondProcess()
    const [a, b] = await Promise.all([answer(sessionId, 'Ada', 'k1'), answer(sessionId, 'Ada', 'k1', other)])
    expect([a.status, b.status]).toEqual([200, 200])
    expect(b.text).toBe(a.text)
    expect(await svc.store.results.listAnswers(resultId)).toHaveLength(1)
    expect((await svc.store.sessions.findById(sessionId))?.step).toBe(1)
  })

  it('take turns for different answers, each applied once', async () => {
    const flow = await importOverHttp(svc, greetingFlow())
    await publishOverHttp(svc, flow.id)
    const { sessionId, resultId } = (await start(flow.id)).body
    const [a, b] = await Promise.all([answer(sessionId, '41', 'k1'), answer(sessionId, '42', 'k2', secondProcess())])
    expect([a.status, b.status]).toEqual([200, 200])
    expect((await svc.store.sessions.findById(sessionId))?.step).toBe(2)
    expect((await svc.store.results.listAnswers(resultId)).map((x) => x.variableId)).toEqual(['vName', 'vAge'])
  })
})

describe('a step that crashed mid-way', () => {
  it('wrote nothing, holds the session until its lease expires, and the answer then goes through once', async () => {
    const flow = await importOverHttp(svc, greetingFlow())
    await publishOverHttp(svc, flow.id)
    const { sessionId, resultId } = (await start(flow.id)).body
    const lease = (expires: string) =>
      svc.store.database.query(
        `UPDATE ${svc.store.tables.sessions} SET lease_owner = 'crashed-process', lease_expires_at = ${expires} WHERE id = $1`,
        [sessionId],
      )
    await lease(`clock_timestamp() + interval '1 hour'`)
    const waiting = await answer(sessionId, 'Ada', 'k1')
    expect(waiting.status).toBe(409)
    expect(waiting.headers.get('retry-after')).toBe('1')
    expect(await svc.store.results.listAnswers(resultId)).toEqual([])

    await lease(`clock_timestamp() - interval '1 second'`)
    const retried = await answer(sessionId, 'Ada', 'k1')
    expect(retried.status).toBe(200)
    expect((await answer(sessionId, 'Ada', 'k1')).text).toBe(retried.text)
    expect(await svc.store.results.listAnswers(resultId)).toHaveLength(1)
    expect((await svc.store.sessions.findById(sessionId))?.step).toBe(1)
  })
})
