import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { chatStepResultSchema, errorBodySchema, startChatResponseSchema } from '../../../src/protocol/index'
import { useTestDatabase } from '../helpers/database'
import { greetingFlow, importOverHttp, publishOverHttp } from '../helpers/flows'
import { createTestService, type TestService } from '../helpers/service'

const db = useTestDatabase()
let svc: TestService
beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(() => svc.close())

function expectError(res: { status: number; body: unknown }, status: number, code: string) {
  expect(res.status).toBe(status)
  expect(errorBodySchema.parse(res.body).error.code).toBe(code)
}

const texts = (body: { messages?: Array<{ content?: any }> | null }) =>
  (body.messages ?? []).map((m) => m.content?.richText?.[0]?.children?.[0]?.text)

async function publishedGreeting(overrides: Record<string, unknown> = {}) {
  const flow = await importOverHttp(svc, greetingFlow(overrides))
  const published = await publishOverHttp(svc, flow.id)
  return { flow, published }
}

const start = (ref: string, json?: unknown) => svc.call('POST', `/v1/flows/${ref}/startChat`, json === undefined ? {} : { json })
const answer = (sessionId: string, message: string, headers?: Record<string, string>) =>
  svc.call('POST', `/v1/sessions/${sessionId}/continueChat`, { json: { message }, headers })

describe('POST /v1/flows/{flowId}/startChat', () => {
  it('starts a session by id or publicId and returns the first step with its ids', async () => {
    const { flow, published } = await publishedGreeting()
    for (const ref of [flow.id, flow.publicId]) {
      const res = await start(ref)
      expect(res.status).toBe(200)
      const body = startChatResponseSchema.parse(res.body)
      expect(texts(body)).toEqual(['Hello! What is your name?'])
      expect(body.input?.type).toBe('text input')
      expect(body.flowId).toBe(flow.id)
      expect(body.publishedAt).toBe(published.updatedAt)
      expect(body.sessionId).toMatch(/^[A-Za-z0-9_-]{24}$/)
      expect(body.resultId).toMatch(/^[A-Za-z0-9_-]{24}$/)
      const session = await svc.store.sessions.findById(body.sessionId)
      expect(session).toMatchObject({ flowId: flow.id, resultId: body.resultId, step: 0, completedAt: null })
    }
  })

  it('keeps prefilled variables in the result', async () => {
    const { flow } = await publishedGreeting()
    const res = await start(flow.id, { prefilledVariables: { Name: 'Ada', Unknown: 1 } })
    expect(res.status).toBe(200)
    const result = await svc.store.results.findForFlow(res.body.resultId, flow.id)
    expect(result?.variables.vName).toBe('Ada')
  })

  it('answers the first input with a start message, in the same call', async () => {
    const { flow } = await publishedGreeting()
    const res = await start(flow.id, { message: 'Ada' })
    expect(res.status).toBe(200)
    const body = startChatResponseSchema.parse(res.body)
    // The greeting, then the step after the answer: the next input is the age.
    expect(texts(body)).toEqual(['Hello! What is your name?'])
    expect(body.input?.type).toBe('number input')
    const session = await svc.store.sessions.findById(body.sessionId)
    expect(session?.state).toMatchObject({ variables: { vName: 'Ada' }, awaiting: { blockId: 'b3' } })
    expect(await svc.store.results.listAnswers(body.resultId)).toMatchObject([{ blockId: 'b2', value: 'Ada' }])

    // The object form, and an invalid answer: the retry message and the same input.
    const typed = await start(flow.id, { message: { type: 'text', text: 'Grace' } })
    expect(typed.body.input?.type).toBe('number input')
    const later = await svc.call('POST', `/v1/sessions/${typed.body.sessionId}/continueChat`, { json: { message: 'not a number' } })
    expect(later.body.input?.type).toBe('number input')
  })

  it('refuses a start message that continueChat would refuse', async () => {
    const { flow } = await publishedGreeting()
    for (const message of ['x'.repeat(10_001), { type: 'text' }, { type: 'command', command: '' }, 42, { type: 'audio', url: 'x' }]) {
      const res = await start(flow.id, { message })
      expectError(res, 400, 'invalid_body')
    }
  })

  it('resumes an earlier result of the flow with its variables, and ignores foreign result ids', async () => {
    const { flow } = await publishedGreeting()
    const first = await start(flow.id)
    await answer(first.body.sessionId, 'Ada')

    const resumed = await start(flow.id, { resultId: first.body.resultId })
    expect(resumed.body.resultId).toBe(first.body.resultId)
    expect(resumed.body.sessionId).not.toBe(first.body.sessionId)
    const session = await svc.store.sessions.findById(resumed.body.sessionId)
    expect(session?.state).toMatchObject({ variables: { vName: 'Ada' } })

    const unknown = await start(flow.id, { resultId: 'never-issued' })
    expect(unknown.status).toBe(200)
    expect(unknown.body.resultId).not.toBe('never-issued')

    const other = await publishedGreeting()
    const foreign = await start(other.flow.id, { resultId: first.body.resultId })
    expect(foreign.body.resultId).not.toBe(first.body.resultId)
  })

  it('refuses closed, unpublished and unknown flows', async () => {
    const { flow } = await publishedGreeting()
    await svc.call('PATCH', `/v1/flows/${flow.id}`, { token: svc.tokens.secret, json: { flow: { isClosed: true } } })
    expectError(await start(flow.id), 410, 'flow_closed')

    const draft = await importOverHttp(svc, greetingFlow())
    expectError(await start(draft.publicId), 404, 'not_published')
    expectError(await start('no-such-flow'), 404, 'flow_not_found')
    expectError(await start('bad%20id'), 404, 'flow_not_found')
  })
})

describe('archived flows', () => {
  it('refuse new chats, running chats and published reads, like flows that do not exist', async () => {
    const { flow } = await publishedGreeting()
    const { sessionId } = (await start(flow.id)).body
    await svc.store.flows.setArchived(flow.id, true, svc.clock.now().toISOString())

    expectError(await start(flow.id), 404, 'flow_not_found')
    expectError(await start(flow.publicId), 404, 'flow_not_found')
    expectError(await answer(sessionId, 'Ada'), 410, 'flow_closed')
    const read = await svc.call('GET', `/v1/flows/${flow.id}/publishedFlow`, { token: svc.tokens.publishable })
    expectError(read, 404, 'flow_not_found')

    await svc.store.flows.setArchived(flow.id, false, svc.clock.now().toISOString())
    expect((await answer(sessionId, 'Ada')).status).toBe(200)
  })
})

describe('POST /v1/sessions/{sessionId}/continueChat', () => {
  it('walks the flow to its end and stores every answer', async () => {
    const { flow } = await publishedGreeting()
    const started = await start(flow.id)
    const { sessionId, resultId } = started.body

    const named = await answer(sessionId, 'Ada')
    expect(named.status).toBe(200)
    expect(chatStepResultSchema.parse(named.body).input?.type).toBe('number input')

    const retry = await answer(sessionId, 'not a number')
    expect(retry.status).toBe(200)
    expect(retry.body.input?.type).toBe('number input')

    const done = await answer(sessionId, '36')
    expect(texts(done.body)).toEqual(['Thanks Ada, bye!'])
    expect(done.body.input ?? undefined).toBeUndefined()

    const answers = await svc.store.results.listAnswers(resultId)
    expect(answers.map((a) => [a.variableId, a.value])).toEqual([
      ['vName', 'Ada'],
      ['vAge', '36'],
    ])
    const result = await svc.store.results.findForFlow(resultId, flow.id)
    expect(result).toMatchObject({ isCompleted: true, variables: { vName: 'Ada' } })

    const after = await answer(sessionId, 'again')
    expectError(after, 410, 'session_expired')
    expect(after.body.error.message).toMatch(/ended/)
  })

  it('answers 404 for an unknown session', async () => {
    expectError(await answer('AAAAAAAAAAAAAAAAAAAAAAAA', 'hi'), 404, 'session_not_found')
    expectError(await answer('not..valid', 'hi'), 404, 'session_not_found')
  })

  it('expires a session after the inactivity TTL, counted from the last answer', async () => {
    const { flow } = await publishedGreeting()
    const { sessionId } = (await start(flow.id)).body
    const ttlMs = svc.config.sessionTtlSeconds * 1000
    svc.clock.advance(ttlMs - 1000)
    expect((await answer(sessionId, 'Ada')).status).toBe(200)
    svc.clock.advance(ttlMs - 1000)
    expect((await answer(sessionId, 'nope')).status).toBe(200) // a retry still counts as activity
    svc.clock.advance(ttlMs)
    const expired = await answer(sessionId, '36')
    expectError(expired, 410, 'session_expired')
    expect(expired.body.error.message).toMatch(/inactivity/)
  })

  it('stops a running chat when the flow is closed', async () => {
    const { flow } = await publishedGreeting()
    const { sessionId } = (await start(flow.id)).body
    await svc.call('PATCH', `/v1/flows/${flow.id}`, { token: svc.tokens.secret, json: { flow: { isClosed: true } } })
    expectError(await answer(sessionId, 'Ada'), 410, 'flow_closed')
  })

  it('keeps running the snapshot a session started on after a re-publish', async () => {
    const { flow, published } = await publishedGreeting()
    const old = (await start(flow.id)).body
    const groups = structuredClone(flow.groups)
    groups[2].blocks[0].content.richText[0].children[0].text = 'New goodbye'
    await svc.call('PATCH', `/v1/flows/${flow.id}`, { token: svc.tokens.secret, json: { flow: { groups } } })
    const republished = await publishOverHttp(svc, flow.id)

    const fresh = (await start(flow.id)).body
    expect(fresh.publishedAt).toBe(republished.updatedAt)
    expect(fresh.publishedAt).not.toBe(published.updatedAt)

    await answer(old.sessionId, 'Ada')
    expect(texts((await answer(old.sessionId, '1')).body)).toEqual(['Thanks Ada, bye!'])
    await answer(fresh.sessionId, 'Bob')
    expect(texts((await answer(fresh.sessionId, '2')).body)).toEqual(['New goodbye'])
  })

  it('serialises concurrent answers to one session', async () => {
    const { flow } = await publishedGreeting()
    const { sessionId, resultId } = (await start(flow.id)).body
    const responses = await Promise.all([answer(sessionId, '41'), answer(sessionId, '42')])
    expect(responses.map((r) => r.status)).toEqual([200, 200])
    const session = await svc.store.sessions.findById(sessionId)
    expect(session?.step).toBe(2)
    // One answer went to the name input, the other (a number) to the age input.
    const answers = await svc.store.results.listAnswers(resultId)
    expect(answers.map((a) => a.variableId)).toEqual(['vName', 'vAge'])
  })
})

describe('Idempotency-Key', () => {
  it('returns the first response again and advances the session once', async () => {
    const { flow } = await publishedGreeting()
    const { sessionId, resultId } = (await start(flow.id)).body
    const key = { 'Idempotency-Key': 'answer-1' }
    const first = await answer(sessionId, 'Ada', key)
    const second = await answer(sessionId, 'Ada', key)
    expect(first.status).toBe(200)
    expect(second.status).toBe(200)
    expect(second.text).toBe(first.text)
    expect(await svc.store.results.listAnswers(resultId)).toHaveLength(1)
    expect((await svc.store.sessions.findById(sessionId))?.step).toBe(1)

    const next = await answer(sessionId, '30', { 'Idempotency-Key': 'answer-2' })
    expect(texts(next.body)).toEqual(['Thanks Ada, bye!'])
    // A late retry of the first answer still gets its own response, not the ended state.
    expect((await answer(sessionId, 'Ada', key)).text).toBe(first.text)
  })

  it('refuses a reused key with a different message, and malformed keys', async () => {
    const { flow } = await publishedGreeting()
    const { sessionId, resultId } = (await start(flow.id)).body
    await answer(sessionId, 'Ada', { 'Idempotency-Key': 'k' })
    expectError(await answer(sessionId, 'Bob', { 'Idempotency-Key': 'k' }), 409, 'conflict')
    expectError(await answer(sessionId, '5', { 'Idempotency-Key': 'x'.repeat(129) }), 400, 'invalid_body')
    expectError(await answer(sessionId, '5', { 'Idempotency-Key': '' }), 400, 'invalid_body')
    expect((await answer(sessionId, '5', { 'Idempotency-Key': 'y'.repeat(128) })).status).toBe(200)
    expect(await svc.store.results.listAnswers(resultId)).toHaveLength(2)
  })

  it('scopes keys to their session', async () => {
    const { flow } = await publishedGreeting()
    const a = (await start(flow.id)).body
    const b = (await start(flow.id)).body
    await answer(a.sessionId, 'Ada', { 'Idempotency-Key': 'same' })
    const other = await answer(b.sessionId, 'Bob', { 'Idempotency-Key': 'same' })
    expect(other.status).toBe(200)
    expect((await svc.store.results.listAnswers(b.resultId)).map((x) => x.value)).toEqual(['Bob'])
  })
})
