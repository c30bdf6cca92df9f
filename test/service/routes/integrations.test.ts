import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { chatStepResultSchema, errorBodySchema, startChatResponseSchema, webhookWaitResponseSchema } from '../../../src/protocol/index'
import { closeSandbox } from '../../../src/service/engine/sandbox/sandbox'
import { useTestDatabase } from '../helpers/database'
import { importOverHttp, publishOverHttp } from '../helpers/flows'
import { type HttpTestServer, startHttpTestServer } from '../helpers/http-test-server'
import { createTestService, type TestService } from '../helpers/service'

const db = useTestDatabase()
let server: HttpTestServer
const services: TestService[] = []

beforeAll(async () => {
  server = await startHttpTestServer()
})
afterAll(async () => {
  await server.close()
  await closeSandbox()
})
afterEach(async () => {
  for (const svc of services.splice(0).reverse()) await svc.close()
})

/** A service that may call the test server by address (127.0.0.1) or as `api.test`, the only name it resolves. */
async function service(options: { allow?: string[]; schema?: string } = {}): Promise<TestService> {
  const svc = await createTestService(db, {
    config: { outboundAllowHosts: options.allow ?? ['127.0.0.1'] },
    resolve: async (host) =>
      host === 'api.test' ? ['127.0.0.1'] : Promise.reject(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' })),
    ...(options.schema ? { schema: options.schema } : {}),
  })
  services.push(svc)
  return svc
}

const text = (id: string, value: string) => ({ id, type: 'text', content: { richText: [{ type: 'p', children: [{ text: value }] }] } })

/** Ask a name; run `block`; show Status/Result; ask again. */
function flowWith(block: Record<string, unknown>) {
  return {
    version: '6',
    name: 'Integration',
    events: [{ id: 'ev', type: 'start', outgoingEdgeId: 'e0', graphCoordinates: { x: 0, y: 0 } }],
    variables: [
      { id: 'vName', name: 'Name' },
      { id: 'vStatus', name: 'Status' },
      { id: 'vResult', name: 'Result' },
    ],
    groups: [
      { id: 'g1', title: 'Ask', blocks: [{ id: 'ask', type: 'text input', outgoingEdgeId: 'e1', options: { variableId: 'vName' } }] },
      { id: 'g2', title: 'Run', blocks: [{ id: 'block', outgoingEdgeId: 'e2', ...block }] },
      {
        id: 'g3',
        title: 'Show',
        blocks: [text('shown', 'Status {{Status}}: {{Result}}'), { id: 'again', type: 'text input', options: {} }],
      },
    ],
    edges: [
      { id: 'e0', from: { eventId: 'ev' }, to: { groupId: 'g1' } },
      { id: 'e1', from: { blockId: 'ask' }, to: { groupId: 'g2' } },
      { id: 'e2', from: { blockId: 'block' }, to: { groupId: 'g3' } },
    ],
  }
}

async function startFlow(svc: TestService, flow: unknown) {
  const imported = await importOverHttp(svc, flow)
  await publishOverHttp(svc, imported.id)
  const res = await svc.call('POST', `/v1/flows/${imported.id}/startChat`)
  expect(res.status).toBe(200)
  return { ...startChatResponseSchema.parse(res.body), flowId: imported.id as string }
}

const answer = (svc: TestService, sessionId: string, message: unknown) =>
  svc.call('POST', `/v1/sessions/${sessionId}/continueChat`, { json: { message } })
const shown = (body: unknown) =>
  (chatStepResultSchema.parse(body).messages ?? []).map((m) => (m.content as { plainText?: string }).plainText ?? '')
const mapping = [
  { id: 'm1', variableId: 'vStatus', bodyPath: 'statusCode' },
  { id: 'm2', variableId: 'vResult', bodyPath: 'data.message || data.error || data' },
]

describe('HTTP request blocks through the service', () => {
  it.each([
    ['hangs', '/hang', 'Status 408: Request timed out. (1s)'],
    ['answers 5xx', '/status/502', 'Status 502: status 502'],
    ['sends 50 MB', '/big?mb=50', 'Status 500: The answer is larger than 1048576 bytes'],
    ['answers invalid JSON', '/invalid-json', 'Status 200: {"not": json'],
  ])('a remote server that %s costs one timeout at most, never a 5xx, and the flow goes on', async (_what, path, expected) => {
    const svc = await service()
    const chat = await startFlow(
      svc,
      flowWith({
        type: 'Webhook',
        options: { timeout: 1, webhook: { url: `${server.origin}${path}`, method: 'GET' }, responseVariableMapping: mapping },
      }),
    )
    const res = await answer(svc, chat.sessionId, 'Ada')
    expect(res.status).toBe(200)
    expect(shown(res.body)).toEqual([expected])
    expect(res.body.input.id).toBe('again')
  })

  it('a redirect to 127.0.0.1 is refused, logged, stored and never followed', async () => {
    const svc = await service({ allow: ['api.test'] })
    const before = server.hits('/echo').length
    const url = `http://api.test:${server.port}/redirect?to=${encodeURIComponent(`${server.origin}/echo`)}`
    const chat = await startFlow(
      svc,
      flowWith({ type: 'Webhook', options: { webhook: { url, method: 'GET' }, responseVariableMapping: mapping } }),
    )
    const res = await answer(svc, chat.sessionId, 'Ada')
    expect(res.status).toBe(200)
    expect(shown(res.body)[0]).toMatch(/^Status 400: Security validation failed: Refused to connect to 127\.0\.0\.1/)
    expect(server.hits('/echo').length).toBe(before)
    // The visitor sees that the request failed; what was called is kept with the result only.
    expect(res.body.logs).toEqual([
      { status: 'error', description: 'HTTP request failed (no answer)', details: { blockId: 'block', type: 'Webhook' } },
    ])
    expect(res.text).not.toContain('api.test')
    const logs = await svc.call('GET', `/v1/flows/${chat.flowId}/results/${chat.resultId}/logs`, { token: svc.tokens.secret })
    expect(logs.body.logs).toContainEqual(
      expect.objectContaining({
        description: 'Webhook returned an error.',
        details: expect.objectContaining({ request: { url, method: 'GET' } }),
      }),
    )
  })

  it("maps the widget's {statusCode, data}, and answers 400 to anything else", async () => {
    const svc = await service()
    const chat = await startFlow(
      svc,
      flowWith({
        type: 'Webhook',
        options: {
          isExecutedOnClient: true,
          webhook: { url: 'https://api.example.com/x', method: 'GET' },
          responseVariableMapping: mapping,
        },
      }),
    )
    const waiting = await answer(svc, chat.sessionId, 'Ada')
    expect(waiting.body.clientSideActions).toEqual([
      {
        type: 'httpRequestToExecute',
        httpRequestToExecute: { url: 'https://api.example.com/x', method: 'GET', headers: {}, timeoutSeconds: 10 },
        expectsDedicatedReply: true,
      },
    ])
    const invalid = await answer(svc, chat.sessionId, 'not json')
    expect(invalid.status).toBe(400)
    expect(errorBodySchema.parse(invalid.body).error).toMatchObject({
      code: 'invalid_body',
      message: 'Provided response is not valid JSON',
    })
    const done = await answer(svc, chat.sessionId, JSON.stringify({ statusCode: 200, data: { message: 'from the browser' } }))
    expect(shown(done.body)).toEqual(['Status 200: from the browser'])
  })
})

describe('E-mail blocks through the service', () => {
  it('keeps the e-mail in the outbox when no SMTP server is configured', async () => {
    const svc = await service()
    const chat = await startFlow(
      svc,
      flowWith({ type: 'Email', options: { recipients: ['{{Name}}@example.com'], subject: 'Hello {{Name}}', body: 'Hi!' } }),
    )
    const res = await answer(svc, chat.sessionId, 'ada')
    expect(res.body.logs).toEqual([
      { status: 'info', description: 'E-mail kept in the outbox: no SMTP server is configured', details: { blockId: 'block' } },
    ])
    const outbox = await svc.call('GET', '/v1/outbox', { token: svc.tokens.secret })
    expect(outbox.body.emails).toEqual([
      expect.objectContaining({
        flowId: chat.flowId,
        resultId: chat.resultId,
        message: expect.objectContaining({ to: ['ada@example.com'], subject: 'Hello ada', text: 'Hi!' }),
      }),
    ])
  })
})

describe('wait for a webhook', () => {
  const waitFlow = flowWith({
    type: 'webhook',
    options: {
      responseVariableMapping: [
        { id: 'm', variableId: 'vResult', bodyPath: 'data.order' },
        { id: 's', variableId: 'vStatus', bodyPath: 'statusCode' },
      ],
    },
  })

  async function waitingChat(svc: TestService) {
    const chat = await startFlow(svc, waitFlow)
    const res = await answer(svc, chat.sessionId, 'Ada')
    const [action] = res.body.clientSideActions
    expect(action).toMatchObject({ type: 'listenForWebhook', expectsDedicatedReply: true })
    return { ...chat, waitId: action.listenForWebhook.waitId as string }
  }
  const listen = (svc: TestService, sessionId: string, waitId: string, timeoutSeconds = 0) =>
    svc.call('GET', `/v1/sessions/${sessionId}/listenForWebhook?waitId=${waitId}&timeoutSeconds=${timeoutSeconds}`)
  const callWebhook = (svc: TestService, chat: { flowId: string; resultId: string }, body: unknown, token = svc.tokens.secret) =>
    svc.call('POST', `/v1/flows/${chat.flowId}/results/${chat.resultId}/webhook`, { token, json: body })

  it('pauses until the webhook is called, then every listener gets the step the flow produced', async () => {
    const svc = await service()
    const chat = await waitingChat(svc)
    expect(webhookWaitResponseSchema.parse((await listen(svc, chat.sessionId, chat.waitId)).body)).toEqual({ status: 'waiting' })
    expect((await listen(svc, chat.sessionId, 'not-this-wait')).status).toBe(404)
    const typed = await answer(svc, chat.sessionId, 'are you there?')
    expect(typed.status).toBe(409)

    expect((await callWebhook(svc, chat, { order: 'A-1' }, svc.tokens.otherSecret)).status).toBe(404)
    expect((await callWebhook(svc, { ...chat, resultId: 'unknown' }, {})).status).toBe(404)
    const called = await callWebhook(svc, chat, { order: 'A-1' })
    expect(called.status).toBe(200)
    expect(called.body).toEqual({ status: 'continued', sessionId: chat.sessionId, waitId: chat.waitId })

    const heard = webhookWaitResponseSchema.parse((await listen(svc, chat.sessionId, chat.waitId)).body)
    expect(heard.status).toBe('continued')
    expect(heard.status === 'continued' && shown(heard.step)).toEqual(['Status 200: A-1'])
    // A reload asks again and gets the same step; the conversation goes on from there.
    expect((await listen(svc, chat.sessionId, chat.waitId)).text).toBe((await listen(svc, chat.sessionId, chat.waitId)).text)
    expect((await answer(svc, chat.sessionId, 'thanks')).status).toBe(200)
    expect((await callWebhook(svc, chat, { order: 'again' })).status).toBe(409)
    expect((await listen(svc, chat.sessionId, 'not-this-wait')).status).toBe(410)
  })

  it('wakes a long poll in another process sharing the database, and survives a restart', async () => {
    const first = await service()
    const chat = await waitingChat(first)
    const second = await service({ schema: first.schema })
    const polling = listen(second, chat.sessionId, chat.waitId, 10)
    expect((await callWebhook(first, chat, { order: 'B-2' })).status).toBe(200)
    const heard = webhookWaitResponseSchema.parse((await polling).body)
    expect(heard.status === 'continued' && shown(heard.step)).toEqual(['Status 200: B-2'])

    const restarted = await service({ schema: first.schema })
    const again = webhookWaitResponseSchema.parse((await listen(restarted, chat.sessionId, chat.waitId)).body)
    expect(again).toEqual(heard)
  })

  it('refuses malformed long polls', async () => {
    const svc = await service()
    const chat = await waitingChat(svc)
    for (const query of ['', '?waitId=', `?waitId=${chat.waitId}&timeoutSeconds=26`, `?waitId=${chat.waitId}&timeoutSeconds=x`]) {
      const res = await svc.call('GET', `/v1/sessions/${chat.sessionId}/listenForWebhook${query}`)
      expect(res.status, query).toBe(400)
    }
    expect((await svc.call('GET', `/v1/sessions/unknown/listenForWebhook?waitId=${chat.waitId}`)).status).toBe(404)
  })
})
