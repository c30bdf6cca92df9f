import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeSandbox } from '../../../src/service/engine/sandbox/sandbox'
import { AllowList } from '../../../src/service/outbound/address-policy'
import { createOutboundHttp, type OutboundHttp } from '../../../src/service/outbound/outbound-http'
import { type HttpTestServer, startHttpTestServer } from '../helpers/http-test-server'
import { buildFlow, Conversation, input, varId } from './support/flow-builder'

/** Which variables `prefilledVariables` may set: not those that say where a call goes, unless the flow allows it. */
let server: HttpTestServer
let evil: HttpTestServer
let http: OutboundHttp

beforeAll(async () => {
  ;[server, evil] = await Promise.all([startHttpTestServer(), startHttpTestServer()])
  http = createOutboundHttp({ allow: AllowList.parse('127.0.0.1').list })
})
afterAll(async () => {
  await Promise.all([http.close(), server.close(), evil.close()])
  await closeSandbox()
})

const NAMES = ['Name', 'Api', 'Token', 'Query', 'Email', 'AiBase', 'Model', 'Opted', 'Locked', 'Body']

/** An HTTP request and an AI block reading variables, an input asking for the e-mail. */
function integrationFlow(declared: Record<string, boolean> = {}) {
  const flow = buildFlow({
    variables: NAMES,
    groups: [
      {
        id: 'g',
        blocks: [
          {
            id: 'http',
            type: 'Webhook',
            options: {
              isCustomBody: true,
              webhook: {
                url: '{{Api}}/echo',
                method: 'POST',
                headers: [
                  { id: 'a', key: 'Authorization', value: 'Bearer {{Token}}' },
                  { id: 'e', key: 'X-Email', value: '{{Email}}' },
                ],
                queryParams: [{ id: 'q', key: 'q', value: '{{Query}}' }],
                body: '{"name": "{{Name}}", "note": "{{Body}}"}',
              },
            },
          },
          {
            id: 'ai',
            type: 'openai',
            options: { action: 'Create chat completion', baseUrl: '{{AiBase}}', model: '{{Model}}', messages: [] },
          },
          input('email', 'email input', { variableId: varId('Email') }),
        ],
      },
    ],
  })
  // The owner's key, kept in the flow.
  flow.variables = flow.variables?.map((variable) => ({
    ...variable,
    ...(variable.name === 'Token' ? { value: 'sk-owner' } : {}),
    ...(variable.name in declared ? { isPrefillable: declared[variable.name] } : {}),
  }))
  return flow
}

async function startWith(prefilledVariables: Record<string, string>, declared?: Record<string, boolean>) {
  const conversation = new Conversation(integrationFlow(declared), undefined, { http })
  return conversation.start({ prefilledVariables })
}

describe('prefilled variables', () => {
  it('set the variables no integration reads to say where or how it calls, and those an input asks for', async () => {
    const outcome = await startWith({ Name: 'Ada', Body: 'hello', Email: 'ada@example.com' })
    expect(outcome.state.variables).toMatchObject({ [varId('Name')]: 'Ada', [varId('Body')]: 'hello', [varId('Email')]: 'ada@example.com' })
    expect(outcome.logs.filter((log) => log.description.startsWith('Prefilled'))).toEqual([])
  })

  it("never set a request's address, headers or query, nor an AI block's address or model, and say so", async () => {
    const prefilled = { Api: evil.origin, Token: 'guess', Query: 'x', AiBase: `${evil.origin}/v1`, Model: 'gpt-expensive' }
    const before = evil.received.length
    const outcome = await startWith({ ...prefilled, Name: 'Ada' })
    for (const name of ['Api', 'Query', 'AiBase', 'Model']) expect(outcome.state.variables, name).not.toHaveProperty(varId(name))
    expect(outcome.state.variables[varId('Token')]).toBe('sk-owner')
    expect(outcome.state.variables[varId('Name')]).toBe('Ada')
    expect(outcome.response.logs).toContainEqual({
      status: 'warning',
      description:
        'Prefilled variables not set: they configure an integration of this flow (a variable with isPrefillable: true may be prefilled)',
      details: { variables: ['Api', 'Token', 'Query', 'AiBase', 'Model'] },
    })
    expect(evil.received.length).toBe(before)
  })

  it('follow what the flow declares: isPrefillable true lets one in, false keeps any out', async () => {
    const before = server.hits('/echo').length
    const outcome = await startWith({ Api: server.origin, Name: 'Ada', Email: 'ada@example.com' }, { Api: true, Name: false, Email: false })
    expect(outcome.state.variables[varId('Api')]).toBe(server.origin)
    expect(outcome.state.variables).not.toHaveProperty(varId('Name'))
    expect(outcome.state.variables).not.toHaveProperty(varId('Email'))
    expect(server.hits('/echo').length).toBe(before + 1)
  })
})
