import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { aiFlow, say, startAiChat, streamMessage, useAiServices } from '../helpers/ai-flows'
import { databaseUrl, useTestDatabase } from '../helpers/database'
import { importOverHttp, publishOverHttp } from '../helpers/flows'
import { type HttpTestServer, startHttpTestServer } from '../helpers/http-test-server'
import { parseMetrics, type Sample, total } from '../helpers/metrics'
import { createTestService, type TestService } from '../helpers/service'

/**
 * `GET /metrics`: only with METRICS_TOKEN set, only for a caller sending it, in the Prometheus
 * text format, and what it counts moves as the service works: requests by route and status, chat
 * steps, the sandbox's runs, outgoing calls, AI answers streamed.
 */
const db = useTestDatabase()
const ai = useAiServices(db)
const METRICS_TOKEN = 'metrics-token-for-the-tests-0123456789'
let server: HttpTestServer
beforeAll(async () => {
  server = await startHttpTestServer()
})
afterAll(() => server.close())

async function scrape(svc: TestService): Promise<Sample[]> {
  const res = await svc.call('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  expect(res.status).toBe(200)
  return parseMetrics(res.text)
}

const text = (id: string, value: string) => ({ id, type: 'text', content: { richText: [{ type: 'p', children: [{ text: value }] }] } })

/** An answer runs flow code, calls a server twice (a 200 and a 503), and asks again. */
function countedFlow(origin: string) {
  const call = (id: string, url: string) => ({
    id,
    type: 'Webhook',
    options: { webhook: { url, method: 'GET' }, responseVariableMapping: [] },
  })
  return {
    version: '6',
    name: 'Counted',
    events: [{ id: 'ev', type: 'start', outgoingEdgeId: 'e0', graphCoordinates: { x: 0, y: 0 } }],
    variables: [
      { id: 'vMsg', name: 'Msg' },
      { id: 'vSum', name: 'Sum' },
    ],
    groups: [
      { id: 'ask', title: 'Ask', blocks: [{ id: 'q', type: 'text input', outgoingEdgeId: 'e1', options: { variableId: 'vMsg' } }] },
      {
        id: 'work',
        title: 'Work',
        blocks: [
          { id: 'code', type: 'Set variable', options: { variableId: 'vSum', expressionToEvaluate: '1 + 1', isCode: true } },
          call('ok', `${origin}/json?value=1`),
          call('down', `${origin}/status/503`),
          text('done', 'Sum {{Sum}}'),
          { id: 'again', type: 'text input', options: { variableId: 'vMsg' } },
        ],
      },
    ],
    edges: [
      { id: 'e0', from: { eventId: 'ev' }, to: { groupId: 'ask' } },
      { id: 'e1', from: { blockId: 'q' }, to: { groupId: 'work' } },
    ],
  }
}

describe('GET /metrics', () => {
  it('does not exist without METRICS_TOKEN', async () => {
    const svc = await ai.service()
    for (const headers of [{}, { authorization: `Bearer ${METRICS_TOKEN}` }] as Record<string, string>[]) {
      const res = await svc.call('GET', '/metrics', { headers })
      expect(res.status).toBe(404)
      expect(res.text).not.toContain('flow_http_requests_total')
    }
  })

  it('answers only the token: 401 without it or with another, then 429 once the address is out of failures', async () => {
    const svc = await ai.service({ config: { metricsToken: METRICS_TOKEN, authFailureLimit: { perMinute: 1, burst: 3 } } })
    const scrapeWith = (headers: Record<string, string>) =>
      svc.call('GET', '/metrics', { headers: { 'x-forwarded-for': '203.0.113.9', ...headers } })
    for (const headers of [{}, { authorization: `Bearer ${METRICS_TOKEN}x` }, { authorization: `Basic ${METRICS_TOKEN}` }] as Record<
      string,
      string
    >[]) {
      const res = await scrapeWith(headers)
      expect(res.status).toBe(401)
      expect(res.body.error.code).toBe('unauthorized')
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /)
      expect(res.text).not.toContain('flow_')
    }
    expect((await scrapeWith({ authorization: 'Bearer guess-number-four' })).status).toBe(429)

    const res = await svc.call('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.text).toContain('# TYPE flow_http_requests_total counter')
    expect(res.text).toContain('# TYPE flow_http_request_duration_seconds histogram')
    expect(total(parseMetrics(res.text), 'flow_http_requests_total', { route: '/metrics', status: '401' })).toBeGreaterThanOrEqual(3)
  })

  it('counts requests by route pattern and status, chat steps, sandbox runs and outgoing calls by outcome', async () => {
    const svc = await ai.service({ config: { metricsToken: METRICS_TOKEN } })
    const flow = await importOverHttp(svc, countedFlow(server.origin))
    await publishOverHttp(svc, flow.id)
    const before = await scrape(svc)

    const start = await svc.call('POST', `/v1/flows/${flow.id}/startChat`)
    const answer = await say(svc, start.body.sessionId, { message: 'hello' })
    expect(answer.status).toBe(200)
    expect(answer.body.messages.at(-1).content.plainText).toBe('Sum 2')
    const refused = await say(svc, 'no-such-session', { message: 'hello' })
    expect(refused.status).toBe(404)

    const after = await scrape(svc)
    const moved = (name: string, labels: Record<string, string>) => total(after, name, labels) - total(before, name, labels)
    const continueChat = { route: '/v1/sessions/:sessionId/continueChat' }
    expect(moved('flow_http_requests_total', { ...continueChat, method: 'POST', status: '200' })).toBe(1)
    expect(moved('flow_http_requests_total', { ...continueChat, method: 'POST', status: '404' })).toBe(1)
    expect(moved('flow_http_requests_total', { route: '/v1/flows/:flowId/startChat', status: '200' })).toBe(1)
    expect(moved('flow_http_request_duration_seconds_count', { ...continueChat, method: 'POST' })).toBe(2)
    expect(moved('flow_http_request_duration_seconds_bucket', { ...continueChat, le: '+Inf' })).toBe(2)
    // The raw path (a session id) is never a label.
    expect(after.some((sample) => Object.values(sample.labels).some((value) => value.includes(start.body.sessionId)))).toBe(false)

    expect(moved('flow_chat_steps_total', { kind: 'start', outcome: 'ok' })).toBe(1)
    expect(moved('flow_chat_steps_total', { kind: 'message', outcome: 'ok' })).toBe(1)
    expect(moved('flow_chat_step_duration_seconds_count', { kind: 'message' })).toBe(1)
    expect(moved('flow_sandbox_runs_total', { outcome: 'ok' })).toBe(1)
    expect(moved('flow_outbound_calls_total', { outcome: '2xx' })).toBe(1)
    expect(moved('flow_outbound_calls_total', { outcome: '5xx' })).toBe(1)
  })

  it('counts outgoing calls the guard refuses and flow code that runs out of time', async () => {
    const svc = await ai.service({ config: { metricsToken: METRICS_TOKEN }, allow: [] })
    const flow = countedFlow(server.origin)
    const work = flow.groups[1]!.blocks
    work[0] = {
      id: 'code',
      type: 'Set variable',
      options: { variableId: 'vSum', expressionToEvaluate: '(() => { for (;;) {} })()', isCode: true },
    }
    const imported = await importOverHttp(svc, flow)
    await publishOverHttp(svc, imported.id)
    const before = await scrape(svc)
    const start = await svc.call('POST', `/v1/flows/${imported.id}/startChat`)
    expect((await say(svc, start.body.sessionId, { message: 'hello' })).status).toBe(200)
    const after = await scrape(svc)
    const moved = (name: string, labels: Record<string, string>) => total(after, name, labels) - total(before, name, labels)
    expect(moved('flow_sandbox_runs_total', { outcome: 'timeout' })).toBe(1)
    // 127.0.0.1 is not allowed here: both calls are refused before anything is sent.
    expect(moved('flow_outbound_calls_total', { outcome: 'refused' })).toBe(2)
  }, 30_000)

  it('counts AI answers streamed, and the steps before and after them', async () => {
    const svc = await ai.service({ config: { metricsToken: METRICS_TOKEN } })
    ai.server.script({ parts: ['Bon', 'jour'] })
    const before = await scrape(svc)
    const chat = await startAiChat(svc, aiFlow(), true)
    expect((await say(svc, chat.sessionId, { message: 'Bonjour' })).status).toBe(200)
    expect((await streamMessage(svc, chat.sessionId)).text).toBe('Bonjour')
    expect((await say(svc, chat.sessionId, {})).status).toBe(200)

    // The answer is recorded before the run that read it ends: the count may be a moment behind.
    let after = await scrape(svc)
    const moved = (name: string, labels: Record<string, string> = {}) => total(after, name, labels) - total(before, name, labels)
    while (moved('flow_ai_streams_total') === 0) {
      await new Promise((resolve) => setTimeout(resolve, 10))
      after = await scrape(svc)
    }
    expect(moved('flow_ai_streams_total', { outcome: 'done' })).toBe(1)
    expect(total(after, 'flow_ai_streams_active')).toBe(0)
    expect(moved('flow_chat_steps_total', { kind: 'stream', outcome: 'ok' })).toBe(1)
    expect(moved('flow_outbound_calls_total', { outcome: '2xx' })).toBe(1)
    expect(moved('flow_http_requests_total', { route: '/v1/sessions/:sessionId/streamMessage', status: '200' })).toBe(1)
  })

  it.skipIf(!databaseUrl)("reports the PostgreSQL pool's connections", async () => {
    const svc = await createTestService(db, { config: { metricsToken: METRICS_TOKEN } })
    try {
      const samples = await scrape(svc)
      expect(total(samples, 'flow_db_pool_max_connections')).toBeGreaterThanOrEqual(4)
      expect(
        total(samples, 'flow_db_pool_connections', { state: 'idle' }) + total(samples, 'flow_db_pool_connections', { state: 'in_use' }),
      ).toBeGreaterThanOrEqual(1)
    } finally {
      await svc.close()
    }
  })
})
