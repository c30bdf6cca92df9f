import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Block } from '../../../../../src/protocol/index'
import type { StepContext } from '../../../../../src/service/engine/index'
import { closeSandbox } from '../../../../../src/service/engine/sandbox/sandbox'
import { AllowList } from '../../../../../src/service/outbound/address-policy'
import { createOutboundHttp, type OutboundHttp } from '../../../../../src/service/outbound/outbound-http'
import { type HttpTestServer, startHttpTestServer } from '../../../helpers/http-test-server'
import { buildFlow, Conversation, edge, input, text, texts, varId } from '../../support/flow-builder'

let server: HttpTestServer
let allowed: OutboundHttp
let guarded: OutboundHttp
let allowedByName: OutboundHttp

beforeAll(async () => {
  server = await startHttpTestServer()
  allowed = createOutboundHttp({ allow: AllowList.parse('127.0.0.1').list })
  guarded = createOutboundHttp()
  allowedByName = createOutboundHttp({ allow: AllowList.parse('api.test').list, resolve: async () => ['127.0.0.1'] })
})
afterAll(async () => {
  await Promise.all([allowed.close(), guarded.close(), allowedByName.close(), server.close()])
  await closeSandbox()
})

const VARIABLES = ['Name', 'City', 'Status', 'Result', 'List', 'Answer']
const mapping = (pairs: Record<string, string>) =>
  Object.entries(pairs).map(([name, bodyPath], i) => ({ id: `m${i}`, variableId: varId(name), bodyPath }))

/**
 * A flow: ask the name, send the request, show `Status` and `Result`, ask once more. `City`, which
 * the tests prefill and put in URLs, is declared prefillable.
 */
function requestFlow(options: Record<string, unknown>): ReturnType<typeof buildFlow> {
  const block: Block = { id: 'http', type: 'Webhook', options, outgoingEdgeId: 'after' }
  const flow = buildFlow({
    variables: VARIABLES,
    groups: [
      { id: 'ask', title: 'Ask', blocks: [input('name', 'text input', { variableId: varId('Name') }, { outgoingEdgeId: 'e1' })] },
      { id: 'call', blocks: [block, text('never', 'not next in group')] },
      {
        id: 'show',
        blocks: [text('shown', 'Status {{Status}}: {{Result}}'), input('more', 'text input', { variableId: varId('Answer') })],
      },
    ],
    edges: [edge('e1', 'name', 'call'), edge('after', 'http', 'show')],
  })
  flow.variables = flow.variables?.map((variable) => (variable.name === 'City' ? { ...variable, isPrefillable: true } : variable))
  return flow
}

const at = (path: string) => `${server.origin}${path}`

async function run(options: Record<string, unknown>, context: Partial<StepContext> = {}, name = 'Ada') {
  const conversation = new Conversation(requestFlow(options), undefined, { resultId: 'r1', http: allowed, ...context })
  await conversation.start({ prefilledVariables: { City: 'Paris' } })
  const outcome = await conversation.answer(name)
  return { conversation, outcome }
}

describe('HTTP request blocks against a real HTTP server', () => {
  it.each(['POST', 'GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'])('sends %s and maps the answer', async (method) => {
    const before = server.hits('/echo').length
    const { outcome } = await run({
      webhook: { url: at('/echo'), method },
      responseVariableMapping: mapping({ Status: 'statusCode', Result: 'data.method' }),
    })
    const received = server.hits('/echo').slice(before)
    expect(received.map((r) => r.method)).toEqual([method])
    expect(outcome.state.variables[varId('Status')]).toBe(200)
    // HEAD answers no body: reading a field of it gives nothing.
    expect(outcome.state.variables[varId('Result')]).toBe(method === 'HEAD' ? null : method)
    expect(texts(outcome)[0]).toBe(`Status 200: ${method === 'HEAD' ? '' : method}`)
  })

  it('fills URL, query, headers and a JSON body with variables', async () => {
    const before = server.hits('/echo').length
    await run(
      {
        isCustomBody: true,
        webhook: {
          url: at('/echo?from={{City}}'),
          method: 'POST',
          headers: [
            { id: 'h', key: 'X-Visitor', value: '{{Name}}' },
            { id: 'a', key: 'Authorization', value: 'Basic {{Name}}:secret' },
          ],
          queryParams: [{ id: 'q', key: 'name', value: '{{Name}}' }],
          body: '{"name": "{{Name}}", "city": "{{City}}", "unset": {{Result}}}',
        },
      },
      {},
      'Ada "Countess" Lovelace',
    )
    const [received] = server.hits('/echo').slice(before)
    expect([...received!.query.entries()]).toEqual([
      ['from', 'Paris'],
      ['name', 'Ada "Countess" Lovelace'],
    ])
    expect(received!.headers['x-visitor']).toBe('Ada "Countess" Lovelace')
    expect(received!.headers.authorization).toBe(`Basic ${Buffer.from('Ada "Countess" Lovelace:secret').toString('base64')}`)
    expect(received!.headers['content-type']).toBe('application/json')
    expect(JSON.parse(received!.body)).toEqual({ name: 'Ada "Countess" Lovelace', city: 'Paris', unset: null })
  })

  it('sends the answers snapshot by default', async () => {
    const before = server.hits('/echo').length
    await run(
      { webhook: { url: at('/echo') } },
      {
        now: () => new Date('2026-02-03T04:05:06.000Z'),
        resultAnswers: async () => [{ blockId: 'old', groupId: 'show', value: 'earlier answer' }],
      },
    )
    const [received] = server.hits('/echo').slice(before)
    expect(received!.method).toBe('POST')
    expect(JSON.parse(received!.body)).toEqual({
      submittedAt: '2026-02-03T04:05:06.000Z',
      show: 'earlier answer',
      Name: 'Ada',
      City: 'Paris',
    })
  })

  it('maps nested paths, arrays and expressions', async () => {
    const value = {
      user: { profile: { name: 'Ada' } },
      items: [
        { id: 7, tags: ['a', 'b'] },
        { id: 8, tags: ['c'] },
      ],
    }
    const { outcome } = await run({
      webhook: { url: at(`/json?value=${encodeURIComponent(JSON.stringify(value))}`), method: 'GET' },
      responseVariableMapping: mapping({
        Result: 'data.user.profile.name',
        List: 'data.items.flatMap(item => item.tags)',
        Status: 'data.items.length * 10',
      }),
    })
    expect(outcome.state.variables).toMatchObject({ [varId('Result')]: 'Ada', [varId('List')]: ['a', 'b', 'c'], [varId('Status')]: 20 })
  })

  it("reads a visitor's answer in a mapping's path as a value, never as code", async () => {
    const value = { items: [{ name: 'Widget' }], internal: { apiKey: 'sk-private' } }
    const options = {
      webhook: { url: at(`/json?value=${encodeURIComponent(JSON.stringify(value))}`), method: 'GET' },
      responseVariableMapping: mapping({ Result: 'data.items[{{Name}}].name' }),
    }
    const injected = await run(options, {}, "0].name + ' | ' + JSON.stringify(data.internal) + ' | ' + data.items[0")
    expect(texts(injected.outcome)[0]).toBe('Status : ')
    expect(JSON.stringify(injected.outcome.state)).not.toContain('sk-private')
    expect(texts((await run(options, {}, '0')).outcome)[0]).toBe('Status : Widget')
  })

  it('maps a 5xx answer too, and says publicly only that the request failed', async () => {
    const { outcome } = await run({
      webhook: { url: at('/status/503'), method: 'GET' },
      responseVariableMapping: mapping({ Status: 'statusCode', Result: 'data.error' }),
    })
    expect(texts(outcome)[0]).toBe('Status 503: status 503')
    expect(outcome.response.logs).toEqual([
      { status: 'error', description: 'HTTP request failed (status 503)', details: { blockId: 'http', type: 'Webhook' } },
    ])
    // What was sent and answered is stored, not shown.
    expect(outcome.logs).toContainEqual(
      expect.objectContaining({
        description: 'Webhook returned an error.',
        details: expect.objectContaining({ statusCode: 503, request: { url: at('/status/503'), method: 'GET' } }),
      }),
    )
    expect(JSON.stringify(outcome.response)).not.toContain('/status/503')
  })

  it('keeps a successful call out of the public logs', async () => {
    const { outcome } = await run({ webhook: { url: at('/json?value=1'), method: 'GET' } })
    expect(outcome.response.logs).toBeUndefined()
    expect(outcome.logs).toEqual([expect.objectContaining({ status: 'success', description: 'Webhook successfuly executed.' })])
  })

  it('gives up on a server that hangs after the block timeout and goes on', async () => {
    const { outcome } = await run({
      timeout: 1,
      webhook: { url: at('/hang'), method: 'GET' },
      responseVariableMapping: mapping({ Status: 'statusCode', Result: 'data.message' }),
    })
    expect(texts(outcome)[0]).toBe('Status 408: Request timed out. (1s)')
    expect(outcome.response.input?.id).toBe('more')
  })

  it('stops reading a 50 MB answer at the size cap', async () => {
    const { outcome } = await run({
      webhook: { url: at('/big?mb=50'), method: 'GET' },
      responseVariableMapping: mapping({ Status: 'statusCode', Result: 'data.message' }),
    })
    expect(outcome.state.variables[varId('Status')]).toBe(500)
    expect(outcome.state.variables[varId('Result')]).toMatch(/larger than 1048576 bytes/)
  })

  it('keeps an answer that is not JSON as text', async () => {
    const { outcome } = await run({
      webhook: { url: at('/invalid-json'), method: 'GET' },
      responseVariableMapping: mapping({ Result: 'data' }),
    })
    expect(outcome.state.variables[varId('Result')]).toBe('{"not": json')
  })

  it('refuses a private address, and a redirect to one, without reaching it', async () => {
    const before = server.hits('/echo').length
    const direct = await run(
      { webhook: { url: at('/echo') }, responseVariableMapping: mapping({ Status: 'statusCode', Result: 'data.message' }) },
      { http: guarded },
    )
    expect(direct.outcome.state.variables[varId('Status')]).toBe(400)
    expect(direct.outcome.state.variables[varId('Result')]).toMatch(/^Security validation failed: Refused to connect to 127\.0\.0\.1/)
    expect(direct.outcome.response.logs).toEqual([expect.objectContaining({ description: 'HTTP request failed (no answer)' })])

    const redirect = `http://api.test:${server.port}/redirect?to=${encodeURIComponent(at('/echo'))}`
    const hop = await run(
      { webhook: { url: redirect, method: 'GET' }, responseVariableMapping: mapping({ Status: 'statusCode' }) },
      { http: allowedByName },
    )
    expect(hop.outcome.state.variables[varId('Status')]).toBe(400)
    expect(server.hits('/redirect').length).toBeGreaterThan(0)
    expect(server.hits('/echo').length).toBe(before)
  })

  it('skips the legacy webhookId shape and a request it cannot build, with a log', async () => {
    const legacy = await run({ responseVariableMapping: [] })
    expect(legacy.outcome.response.logs).toEqual([
      expect.objectContaining({ description: 'HTTP request skipped: the request it names is not part of the flow' }),
    ])
    const empty = await run({ webhook: { url: '{{Result}}' } })
    expect(empty.outcome.response.logs).toEqual([
      expect.objectContaining({
        description: "Couldn't parse webhook attributes",
        details: { blockId: 'http', type: 'Webhook', reason: 'its URL is empty' },
      }),
    ])
    expect(texts(empty.outcome)[0]).toBe('Status : ')
  })
})

describe('HTTP request blocks run by the widget (isExecutedOnClient)', () => {
  const clientSide = {
    isExecutedOnClient: true,
    isCustomBody: true,
    webhook: {
      url: 'https://api.example.com/items',
      method: 'POST',
      body: '{"name": "{{Name}}"}',
      headers: [{ id: 'h', key: 'X-Key', value: 'k' }],
    },
    responseVariableMapping: mapping({ Status: 'statusCode', Result: 'data.id' }),
  }

  it('hands the built request to the widget and waits for its {statusCode, data}', async () => {
    const { conversation, outcome } = await run(clientSide, { http: undefined })
    expect(outcome.response.clientSideActions).toEqual([
      {
        type: 'httpRequestToExecute',
        httpRequestToExecute: {
          url: 'https://api.example.com/items',
          method: 'POST',
          headers: { 'X-Key': 'k', 'content-type': 'application/json' },
          body: { name: 'Ada' },
          timeoutSeconds: 10,
        },
        expectsDedicatedReply: true,
      },
    ])
    expect(outcome.response.input).toBeUndefined()
    const after = await conversation.answer(JSON.stringify({ statusCode: 201, data: { id: 'item-9' } }))
    expect(texts(after)).toEqual(['Status 201: item-9'])
    expect(after.response.logs).toEqual([
      { status: 'success', description: 'HTTP request executed successfully!', details: { blockId: 'http', statusCode: 201 } },
    ])
  })

  it('refuses a reply that is not {statusCode, data} JSON and changes nothing', async () => {
    const { conversation } = await run(clientSide, { http: undefined })
    await expect(conversation.answer('not json')).rejects.toMatchObject({ name: 'EngineError', code: 'invalid_reply' })
    await expect(conversation.answer('{"data": 1}')).rejects.toMatchObject({ name: 'EngineError', code: 'invalid_reply' })
    const after = await conversation.answer(
      JSON.stringify({ statusCode: 500, data: 'An error occured while executing the webhook on the client' }),
    )
    expect(texts(after)).toEqual(['Status 500: '])
    expect(after.response.logs?.[0]).toMatchObject({ status: 'error', description: 'HTTP request returned error' })
  })
})
