import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { chatStepResultSchema, errorBodySchema, startChatResponseSchema } from '../../src/protocol/index'
import { useTestDatabase } from './helpers/database'
import { greetingFlow, importOverHttp, loadSharedFlow, publishOverHttp, sharedFlowFiles } from './helpers/flows'
import { captureLogs } from './helpers/logs'
import { createTestService, type TestService, WORKSPACE } from './helpers/service'
import { answerFor } from './helpers/walker'

const db = useTestDatabase()
let svc: TestService
beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(() => svc.close())

const MAX_STEPS = 60

describe.each(sharedFlowFiles())('%s over the HTTP API', (file) => {
  it('imports unchanged, publishes, and chats to the end', async () => {
    const imported = await svc.call('POST', '/v1/flows/import', {
      token: svc.tokens.secret,
      json: { workspaceId: WORKSPACE, flow: loadSharedFlow(file) },
    })
    expect(imported.status).toBe(200)
    const flowId: string = imported.body.flow.id
    expect((await svc.call('POST', `/v1/flows/${flowId}/publish`, { token: svc.tokens.secret })).status).toBe(200)

    const started = await svc.call('POST', `/v1/flows/${imported.body.flow.publicId}/startChat`, { json: {} })
    expect(started.status).toBe(200)
    let step = startChatResponseSchema.parse(started.body) as ReturnType<typeof chatStepResultSchema.parse>
    const { sessionId, resultId } = started.body
    const transcript: string[] = []
    let answered = 0

    for (let i = 0; i < MAX_STEPS; i++) {
      const awaitsReply = (step.clientSideActions ?? []).some((action) => action.expectsDedicatedReply)
      if (!step.input && !awaitsReply) break
      // A script waiting for its result gets an empty one, as when it returns nothing.
      const message = step.input ? answerFor(step.input) : ''
      transcript.push(`${step.input?.type ?? 'client reply'} → ${message}`)
      const res = await svc.call('POST', `/v1/sessions/${sessionId}/continueChat`, {
        json: { message },
        headers: { 'idempotency-key': `step-${i}` },
      })
      expect(res.status, transcript.join('\n')).toBe(200)
      const next = chatStepResultSchema.parse(res.body)
      if (step.input && next.input?.id === step.input.id) {
        throw new Error(`answer refused:\n${transcript.join('\n')}\n${JSON.stringify(next.messages)}`)
      }
      if (step.input) answered++
      step = next
    }

    expect(step.input ?? undefined, transcript.join('\n')).toBeUndefined()
    const session = await svc.store.sessions.findById(sessionId)
    expect(session?.completedAt).not.toBeNull()
    const answers = await svc.store.results.listAnswers(resultId)
    expect(answers).toHaveLength(answered)
    expect(answered).toBeGreaterThan(0)
    const after = await svc.call('POST', `/v1/sessions/${sessionId}/continueChat`, { json: { message: 'more' } })
    expect(after.status).toBe(410)
  })
})

describe('service basics', () => {
  it('reports health', async () => {
    const res = await svc.call('GET', '/v1/health')
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'ok' })
  })

  it('marks API responses as uncacheable and not sniffable', async () => {
    for (const res of [await svc.call('GET', '/v1/health'), await svc.call('GET', '/v1/flows/x')]) {
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    }
  })
})

describe('failures', () => {
  it('answers 500 internal without internals when the database fails, and logs the cause', async () => {
    const flow = await importOverHttp(svc, greetingFlow())
    const logs = captureLogs()
    try {
      await svc.store.database.query(`DROP TABLE ${svc.store.tables.flows} CASCADE`)
      const res = await svc.call('GET', `/v1/flows/${flow.id}`, { token: svc.tokens.secret })
      expect(res.status).toBe(500)
      expect(errorBodySchema.parse(res.body).error).toEqual({
        code: 'internal',
        message: expect.any(String),
      })
      expect(res.text).not.toMatch(/flows|relation|at |\.ts/)
      const logged = logs.lines.filter((line) => line.level === 'error')
      expect(logged).not.toEqual([])
      expect(logged[0]?.err?.message).toMatch(/flows/)
    } finally {
      logs.restore()
    }
  })

  it.each([
    ['a NUL in a path id', 'GET', '/v1/flows/%00/publishedFlow'],
    ['a broken percent escape', 'GET', '/v1/flows/%ZZ'],
    ['an id of 10 000 characters', 'GET', `/v1/flows/${'a'.repeat(10_000)}`],
    ['a session id with a quote', 'POST', "/v1/sessions/abc'--/continueChat"],
    ['a NUL in the query', 'GET', '/v1/flows/FLOW/publishedFlow?migrateToLatestVersion=%00'],
    ['a repeated query flag', 'GET', '/v1/flows/FLOW?migrateToLatestVersion=true&migrateToLatestVersion=false'],
    ['an unknown API version', 'GET', '/v2/flows/FLOW'],
  ])('answers %s with a 4xx error body', async (_name, method, template) => {
    const flow = await importOverHttp(svc, greetingFlow())
    await publishOverHttp(svc, flow.id)
    const res = await svc.call(method, template.replace('FLOW', flow.id), {
      token: svc.tokens.secret,
      ...(method === 'POST' ? { json: { message: 'hi' } } : {}),
    })
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
    errorBodySchema.parse(res.body)
  })
})

describe('the script sandbox document', () => {
  it('is served by the app with its own policy, framable from any page', async () => {
    const response = await svc.app.request('/sandbox/v1/sandbox.html')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-security-policy')).toContain("connect-src 'none'")
    expect(response.headers.get('x-frame-options')).toBeNull()
  })
})
