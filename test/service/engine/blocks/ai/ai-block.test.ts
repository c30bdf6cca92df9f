import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AiServiceOptions, aiFlow, FAST_TIMEOUTS, say, startAiChat, texts, useAiServices } from '../../../helpers/ai-flows'
import { useTestDatabase } from '../../../helpers/database'
import { importOverHttp, publishOverHttp } from '../../../helpers/flows'
import { type OpenAiTestServer, startOpenAiTestServer } from '../../../helpers/openai-test-server'

/** AI blocks computed within the step (API clients, which do not ask for streams), through the service. */
const db = useTestDatabase()
const ai = useAiServices(db)
const service = (options: AiServiceOptions = {}) => ai.service(options)
let server: OpenAiTestServer
beforeAll(() => {
  server = ai.server
})

describe('AI blocks computed within the step', () => {
  it('maps the answer and its tokens, and shows the {{Answer}} bubble itself', async () => {
    const svc = await service()
    server.script({ parts: ['Hi ', 'Ada'], usage: { prompt_tokens: 30, completion_tokens: 2, total_tokens: 32 } })
    const chat = await startAiChat(svc, aiFlow(), false)
    const res = await say(svc, chat.sessionId, { message: 'Hello' })
    expect(res.status).toBe(200)
    expect(res.body.clientSideActions).toBeUndefined()
    expect(texts(res.body)).toEqual(['Hi Ada', '32 tokens for "Hi Ada"'])
    expect(server.received.at(-1)!.body).toMatchObject({ model: 'gpt-test', temperature: 0.5 })
    expect(server.received.at(-1)!.body.stream).toBeFalsy()
  })

  it('builds a Dialogue starting by the assistant with proper alternation', async () => {
    const svc = await service()
    server.script({ parts: ['ok'] })
    const flow = aiFlow(
      {},
      {
        messages: [
          { role: 'Dialogue', dialogueVariableId: 'vDialogue', startsBy: 'assistant' },
          { role: 'user', content: '' },
        ],
      },
    )
    const chat = await startAiChat(svc, flow, false)
    await say(svc, chat.sessionId, { message: 'one' })
    await say(svc, chat.sessionId, { message: 'three' })
    // Dialogue: one, ok, three; the empty user message is dropped.
    expect(server.received.at(-1)!.body.messages).toEqual([
      { role: 'assistant', content: 'one' },
      { role: 'user', content: 'ok' },
      { role: 'assistant', content: 'three' },
    ])
  })

  it('runs the legacy OpenAI block: a messages sequence, its temperature, the answer appended to a list', async () => {
    const svc = await service()
    server.script({ parts: ['legacy answer'] })
    const flow = aiFlow({
      type: 'OpenAI',
      options: {
        task: 'Create chat completion',
        messages: [
          { id: 'm1', role: 'system', content: 'Be brief' },
          {
            id: 'm2',
            role: 'Messages sequence ✨',
            content: { userMessagesVariableId: 'vDialogue', assistantMessagesVariableId: 'vAnswer' },
          },
        ],
        advancedSettings: { temperature: '0.2' },
        responseMapping: [{ id: 'r1', valueToExtract: 'Message content', variableId: 'vAnswer' }],
      },
    })
    const chat = await startAiChat(svc, flow, false)
    await say(svc, chat.sessionId, { message: 'first' })
    expect(server.received.at(-1)!.body).toMatchObject({ model: 'gpt-4o-mini', temperature: 0.2 })
    expect(server.received.at(-1)!.body.messages).toEqual([
      { role: 'system', content: 'Be brief' },
      { role: 'user', content: 'first' },
    ])
  })

  it('calls Mistral with the service-wide MISTRAL_ key and address', async () => {
    const svc = await service({
      serviceKey: false,
      config: { ai: { defaults: { mistral: { apiKey: 'mistral-key', baseUrl: server.baseUrl } }, timeouts: FAST_TIMEOUTS } },
    })
    server.script({ parts: ['Bonjour de Mistral'] })
    const chat = await startAiChat(svc, aiFlow({ type: 'mistral' }, { model: 'mistral-small-latest' }), false)
    expect(texts((await say(svc, chat.sessionId, { message: 'x' })).body)[0]).toBe('Bonjour de Mistral')
    expect(server.received.at(-1)!).toMatchObject({ authorization: 'Bearer mistral-key', body: { model: 'mistral-small-latest' } })
  })

  it("uses the workspace's own credentials when the block names them", async () => {
    const svc = await service({ serviceKey: false })
    const created = await svc.call('POST', '/v1/credentials', {
      token: svc.tokens.secret,
      json: { type: 'openai', id: 'team-key', data: { apiKey: 'sk-workspace', baseUrl: server.baseUrl } },
    })
    expect(created.status).toBe(200)
    server.script({ parts: ['from the team key'] })
    const chat = await startAiChat(svc, aiFlow({}, { credentialsId: 'team-key' }), false)
    expect(texts((await say(svc, chat.sessionId, { message: 'x' })).body)[0]).toBe('from the team key')
    expect(server.received.at(-1)!.authorization).toBe('Bearer sk-workspace')
  })

  it.each([
    ['no credentials anywhere', { serviceKey: false }, {}, 'Could not find credentials for block `openai`'],
    ['credentials of another workspace or none', {}, { credentialsId: 'missing' }, 'Could not find credentials for block `openai`'],
    // The model's variable is still empty when the block runs.
    ['no model', {}, { model: '{{Total}}' }, 'No model provided'],
    [
      'an action this service does not run',
      {},
      { action: 'Create speech' },
      'The openai action "Create speech" is not supported by this service: the block was skipped',
    ],
    ['no action', {}, { action: undefined }, '`openai` is not configured'],
  ])('logs %s and the flow goes on', async (_what, serviceOptions: AiServiceOptions, options, description) => {
    const svc = await service(serviceOptions)
    const before = server.received.length
    const chat = await startAiChat(svc, aiFlow({}, options), false)
    const res = await say(svc, chat.sessionId, { message: 'x' })
    expect(res.status).toBe(200)
    expect(res.body.logs).toContainEqual(expect.objectContaining({ description, details: expect.objectContaining({ blockId: 'ai' }) }))
    expect(res.body.input.id).toBe('again')
    expect(server.received.length).toBe(before)
  })

  it("logs a provider's refusal for the visitor without its words, which stay with the result", async () => {
    const svc = await service()
    server.script({ status: 401 })
    const chat = await startAiChat(svc, aiFlow(), false)
    const res = await say(svc, chat.sessionId, { message: 'x' })
    expect(res.body.logs).toEqual([
      {
        status: 'error',
        description: 'The AI provider answered 401 (check the API key)',
        details: { blockId: 'ai', type: 'openai', status: 401, context: 'While generating chat completion' },
        context: 'While generating chat completion',
      },
    ])
    expect(res.text).not.toContain('sk-te')
    const stored = await svc.call('GET', `/v1/flows/${chat.flowId}/results/${chat.resultId}/logs`, { token: svc.tokens.secret })
    expect(stored.body.logs).toContainEqual(
      expect.objectContaining({
        description: 'The AI provider said',
        details: expect.objectContaining({ message: expect.stringContaining('Incorrect API key') }),
      }),
    )
  })

  it('refuses a provider on a private address unless it is allowed, with a log and the flow going on', async () => {
    const svc = await service({ allow: [] })
    const chat = await startAiChat(svc, aiFlow(), false)
    const res = await say(svc, chat.sessionId, { message: 'x' })
    expect(res.status).toBe(200)
    expect(res.body.logs).toContainEqual(
      expect.objectContaining({
        description: "The AI provider's address is refused by this service",
        context: 'While generating chat completion',
      }),
    )
    expect(texts(res.body)).toEqual([' tokens for ""'])
  })
})

describe('where an AI key goes', () => {
  let evil: OpenAiTestServer
  beforeAll(async () => {
    evil = await startOpenAiTestServer()
  })
  afterAll(() => evil.close())

  const createCredentials = async (svc: Awaited<ReturnType<typeof service>>, data: Record<string, unknown>) => {
    const created = await svc.call('POST', '/v1/credentials', { token: svc.tokens.secret, json: { type: 'openai', id: 'team-key', data } })
    expect(created.status).toBe(200)
  }
  const keysSeenBy = (server: OpenAiTestServer, from: number) => server.received.slice(from).map((request) => request.authorization)

  it.each([
    ['credentials with no address of their own (the provider default)', false],
    ['credentials with their own address', true],
  ])("a block's own baseUrl gets no workspace key: %s", async (_what, ownAddress) => {
    const svc = await service({ serviceKey: false })
    await createCredentials(svc, ownAddress ? { apiKey: 'sk-workspace', baseUrl: server.baseUrl } : { apiKey: 'sk-workspace' })
    const [evilBefore, goodBefore] = [evil.received.length, server.received.length]
    const chat = await startAiChat(svc, aiFlow({}, { credentialsId: 'team-key', baseUrl: evil.baseUrl }), false)
    expect((await say(svc, chat.sessionId, { message: 'x' })).status).toBe(200)
    expect(keysSeenBy(evil, evilBefore)).toEqual([undefined])
    expect(server.received.length).toBe(goodBefore)
  })

  it("a block's own baseUrl gets no service key", async () => {
    const svc = await service()
    const before = evil.received.length
    const chat = await startAiChat(svc, aiFlow({}, { baseUrl: evil.baseUrl }), false)
    expect((await say(svc, chat.sessionId, { message: 'x' })).status).toBe(200)
    expect(keysSeenBy(evil, before)).toEqual([undefined])
  })

  it("the key goes with a block's baseUrl that is the credentials' own address", async () => {
    const svc = await service({ serviceKey: false })
    await createCredentials(svc, { apiKey: 'sk-workspace', baseUrl: server.baseUrl })
    const before = server.received.length
    const chat = await startAiChat(svc, aiFlow({}, { credentialsId: 'team-key', baseUrl: `${server.baseUrl}/` }), false)
    await say(svc, chat.sessionId, { message: 'x' })
    expect(keysSeenBy(server, before)).toEqual(['Bearer sk-workspace'])
  })

  it("a visitor cannot point a block's baseUrl variable at another server by prefilling it", async () => {
    const svc = await service({ serviceKey: false })
    await createCredentials(svc, { apiKey: 'sk-workspace' })
    const flow = aiFlow({}, { credentialsId: 'team-key', baseUrl: '{{Endpoint}}' })
    // The owner's own server, which the block calls (without the key: it is not the key's address).
    const variables: Array<Record<string, unknown>> = flow.variables
    variables.push({ id: 'vEndpoint', name: 'Endpoint', value: server.baseUrl })
    const imported = await importOverHttp(svc, flow)
    await publishOverHttp(svc, imported.id)
    const [evilBefore, ownBefore] = [evil.received.length, server.received.length]
    const start = await svc.call('POST', `/v1/flows/${imported.id}/startChat`, { json: { prefilledVariables: { Endpoint: evil.baseUrl } } })
    expect(start.status).toBe(200)
    await say(svc, start.body.sessionId, { message: 'x' })
    expect(evil.received.length).toBe(evilBefore)
    expect(keysSeenBy(server, ownBefore)).toEqual([undefined])
  })
})
