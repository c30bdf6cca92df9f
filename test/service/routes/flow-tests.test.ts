import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FLOW_TEST_RUNS_AT_ONCE, flowTestsResponseSchema } from '../../../src/protocol/flow-tests'
import { errorBodySchema } from '../../../src/protocol/index'
import { resultsPageSchema } from '../../../src/protocol/results'
import { useTestDatabase } from '../helpers/database'
import { adultHearsAJoke, chatMainWithJokeApi, supportFlow, supportScenario } from '../helpers/flow-tests'
import { greetingFlow, importOverHttp, publishOverHttp } from '../helpers/flows'
import { type CallResult, createTestService, type TestService } from '../helpers/service'

/**
 * `POST /v1/flows/{id}/test`: the same scenarios as the command line, through the API, on the
 * flow's draft or a published version, for the flow's own workspace only, bounded per request,
 * and writing nothing.
 */

const db = useTestDatabase()
let svc: TestService
beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(() => svc.close())

const test = (flowId: string, body: unknown, options: { token?: string; query?: string } = {}) =>
  svc.call('POST', `/v1/flows/${flowId}/test${options.query ?? ''}`, { token: options.token ?? svc.tokens.secret, json: body })
const expectError = (res: CallResult, status: number, code: string) => {
  expect(res.status, res.text).toBe(status)
  expect(errorBodySchema.parse(res.body).error.code).toBe(code)
}

describe('POST /v1/flows/{id}/test', () => {
  it("runs a real export's draft with its HTTP call stubbed, AI answered and e-mail captured, and stores no conversation", async () => {
    const chat = await importOverHttp(svc, chatMainWithJokeApi())
    const res = await test(chat.id, { scenarios: [adultHearsAJoke] })
    expect(res.status, res.text).toBe(200)
    const report = flowTestsResponseSchema.parse(res.body)
    expect(report).toMatchObject({ passed: true, ran: 'draft', scenarios: [{ name: adultHearsAJoke.name, passed: true, failures: [] }] })

    const support = await importOverHttp(svc, supportFlow())
    const supportRun = flowTestsResponseSchema.parse((await test(support.id, { scenarios: [supportScenario] })).body)
    expect(supportRun.scenarios[0]!.failures).toEqual([])

    // A test run is no visitor: no session, no result.
    for (const flowId of [chat.id, support.id]) {
      const results = await svc.call('GET', `/v1/flows/${flowId}/results`, { token: svc.tokens.secret })
      expect(resultsPageSchema.parse(results.body).results).toEqual([])
    }
  })

  it('runs a published version (?version=N) rather than the draft, and says which it ran', async () => {
    const flow = await importOverHttp(svc, greetingFlow())
    await publishOverHttp(svc, flow.id)
    const changed = greetingFlow()
    changed.groups[0].blocks[0].content.richText[0].children[0].text = 'Hi there! Who are you?'
    expect((await svc.call('PUT', `/v1/flows/${flow.id}`, { token: svc.tokens.secret, json: { flow: changed } })).status).toBe(200)

    const scenarios = {
      scenarios: [{ name: 'Greets', start: { messages: [{ equals: 'Hello! What is your name?' }] }, answers: ['Ada', '36'] }],
    }
    const draft = flowTestsResponseSchema.parse((await test(flow.id, scenarios)).body)
    expect(draft.ran).toBe('draft')
    expect(draft.scenarios[0]!.failures).toEqual([
      { step: 'start', expected: 'a message "Hello! What is your name?"', seen: '"Hi there! Who are you?"' },
    ])
    const published = flowTestsResponseSchema.parse((await test(flow.id, scenarios, { query: '?version=1' })).body)
    expect(published).toMatchObject({ passed: true, ran: { version: 1 } })

    expectError(await test(flow.id, scenarios, { query: '?version=2' }), 404, 'not_found')
    expectError(await test(flow.id, scenarios, { query: '?version=first' }), 400, 'invalid_query')
  })

  it("is refused for another workspace's flow (as if it did not exist), without a secret token, and with a publishable one", async () => {
    const flow = await importOverHttp(svc, greetingFlow())
    const scenarios = { scenarios: [{ name: 'Greets', answers: ['Ada', '36'] }] }
    expectError(await test(flow.id, scenarios, { token: svc.tokens.otherSecret }), 404, 'flow_not_found')
    expectError(await test(flow.id, scenarios, { token: svc.tokens.publishable }), 403, 'forbidden')
    expectError(await svc.call('POST', `/v1/flows/${flow.id}/test`, { json: scenarios }), 401, 'unauthorized')
  })

  it('refuses scenarios not in the format, naming each problem, and a body over the management limit', async () => {
    const flow = await importOverHttp(svc, greetingFlow())
    const bad = await test(flow.id, { scenarios: [{ name: 'x', answers: [{ answer: 'Ada', expect: { ending: 'over' } }] }], extra: 1 })
    expectError(bad, 400, 'invalid_body')
    expectError(await test(flow.id, { scenarios: [] }), 400, 'invalid_body')
    const tooMany = { scenarios: Array.from({ length: 51 }, (_, i) => ({ name: `s${i}` })) }
    const many = await test(flow.id, tooMany)
    expectError(many, 400, 'invalid_body')
    expect(JSON.stringify(many.body.error.details)).toContain('scenarios')

    // Within the format's ceilings (answers of 10,000 characters), over the 2 MiB a management body may be.
    const big = { name: 'big', answers: Array.from({ length: 200 }, () => 'x'.repeat(10_000)) }
    const huge = { scenarios: [big, { ...big, name: 'big too' }] }
    expectError(await test(flow.id, huge), 413, 'payload_too_large')
  })

  it(`runs at most ${FLOW_TEST_RUNS_AT_ONCE} test runs at once per process; the next is told to come back`, async () => {
    // Each step runs code until the code time limit stops it: a run that lasts.
    const slow = greetingFlow()
    slow.variables.push({ id: 'vSpin', name: 'Spin' })
    slow.groups[0].blocks.unshift({
      id: 'spin',
      type: 'Set variable',
      options: { variableId: 'vSpin', expressionToEvaluate: '(() => { while (true) {} })()' },
    })
    const flow = await importOverHttp(svc, slow)
    const scenarios = { scenarios: [{ name: 'Spins', answers: ['Ada', '36'] }] }
    const answers = await Promise.all(Array.from({ length: FLOW_TEST_RUNS_AT_ONCE + 1 }, () => test(flow.id, scenarios)))
    const refused = answers.filter((res) => res.status === 429)
    expect(answers.filter((res) => res.status === 200)).toHaveLength(FLOW_TEST_RUNS_AT_ONCE)
    expect(refused).toHaveLength(1)
    expectError(refused[0]!, 429, 'rate_limited')
    expect(refused[0]!.headers.get('retry-after')).toBe('5')
    // Once they are over, a run is taken again.
    expect((await test(flow.id, scenarios)).status).toBe(200)
  })
})
