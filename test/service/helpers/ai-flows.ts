import { afterAll, afterEach, beforeAll, expect } from 'vitest'
import { chatStepResultSchema, startChatResponseSchema } from '../../../src/protocol/index'
import { createStreamParser, type StreamPart } from '../../../src/protocol/stream'
import type { AiTimeouts } from '../../../src/service/ai/ai-config'
import type { ServiceConfig } from '../../../src/service/config'
import { closeSandbox } from '../../../src/service/engine/sandbox/sandbox'
import type { TestDatabase } from './database'
import { importOverHttp, publishOverHttp } from './flows'
import { type OpenAiTestServer, startOpenAiTestServer } from './openai-test-server'
import { createTestService, type TestService } from './service'

/**
 * A chat with an AI: the visitor's message is appended to the Dialogue list, the AI block answers
 * into `Answer` (shown by the `{{Answer}}` bubble right after it, so a widget gets it streamed),
 * then a bubble reports the tokens and the loop asks again.
 */
export function aiFlow(block: Record<string, unknown> = {}, options: Record<string, unknown> = {}) {
  const text = (id: string, value: string) => ({ id, type: 'text', content: { richText: [{ type: 'p', children: [{ text: value }] }] } })
  return {
    version: '6',
    name: 'AI chat',
    events: [{ id: 'ev', type: 'start', outgoingEdgeId: 'e0', graphCoordinates: { x: 0, y: 0 } }],
    variables: [
      { id: 'vMsg', name: 'Msg' },
      { id: 'vDialogue', name: 'Dialogue' },
      { id: 'vAnswer', name: 'Answer' },
      { id: 'vTotal', name: 'Total' },
    ],
    groups: [
      {
        id: 'g1',
        title: 'Ask',
        blocks: [
          text('hello', 'Ask me anything'),
          { id: 'ask', type: 'text input', outgoingEdgeId: 'e1', options: { variableId: 'vMsg' } },
        ],
      },
      {
        id: 'g2',
        title: 'AI',
        blocks: [
          { id: 'append', type: 'Set variable', options: { variableId: 'vDialogue', type: 'Append value(s)', item: '{{Msg}}' } },
          {
            id: 'ai',
            type: 'openai',
            outgoingEdgeId: 'e2',
            options: {
              action: 'Create chat completion',
              model: 'gpt-test',
              messages: [
                { role: 'system', content: 'Answer in the language of: {{Msg}}' },
                { role: 'Dialogue', dialogueVariableId: 'vDialogue' },
              ],
              temperature: 0.5,
              responseMapping: [
                { item: 'Message content', variableId: 'vAnswer' },
                { item: 'Total tokens', variableId: 'vTotal' },
              ],
              ...options,
            },
            ...block,
          },
        ],
      },
      {
        id: 'g3',
        title: 'Answer',
        blocks: [
          text('answer', '{{Answer}}'),
          { id: 'remember', type: 'Set variable', options: { variableId: 'vDialogue', type: 'Append value(s)', item: '{{Answer}}' } },
          text('tokens', '{{Total}} tokens for "{{Answer}}"'),
          { id: 'again', type: 'text input', outgoingEdgeId: 'e3', options: { variableId: 'vMsg' } },
        ],
      },
    ],
    edges: [
      { id: 'e0', from: { eventId: 'ev' }, to: { groupId: 'g1' } },
      { id: 'e1', from: { blockId: 'ask' }, to: { groupId: 'g2' } },
      { id: 'e2', from: { blockId: 'ai' }, to: { groupId: 'g3' } },
      { id: 'e3', from: { blockId: 'again' }, to: { groupId: 'g2' } },
    ],
  }
}

export const FAST_TIMEOUTS: AiTimeouts = { firstTokenMs: 2_000, idleMs: 2_000, totalMs: 10_000 }

export interface AiServiceOptions {
  /** Service-wide OpenAI key pointing at the test server (default true). */
  serviceKey?: boolean
  allow?: string[]
  timeouts?: AiTimeouts
  schema?: string
  /** More of the service's configuration (rate limits, …). */
  config?: Partial<ServiceConfig>
}

export async function aiService(db: TestDatabase, server: OpenAiTestServer, options: AiServiceOptions = {}): Promise<TestService> {
  return createTestService(db, {
    config: {
      outboundAllowHosts: options.allow ?? ['127.0.0.1'],
      ai: {
        defaults: options.serviceKey === false ? {} : { openai: { apiKey: 'sk-service', baseUrl: server.baseUrl } },
        timeouts: options.timeouts ?? FAST_TIMEOUTS,
      },
      ...options.config,
    },
    ...(options.schema ? { schema: options.schema } : {}),
  })
}

/**
 * A local OpenAI-compatible server for the test file, and services calling it that are closed
 * after each test (paused streams released first).
 */
export function useAiServices(db: TestDatabase): {
  readonly server: OpenAiTestServer
  service(options?: AiServiceOptions): Promise<TestService>
} {
  let server: OpenAiTestServer | undefined
  const services: TestService[] = []
  beforeAll(async () => {
    server = await startOpenAiTestServer()
  })
  afterAll(async () => {
    await server?.close()
    await closeSandbox()
  })
  afterEach(async () => {
    server?.release()
    for (const svc of services.splice(0).reverse()) await svc.close()
  })
  return {
    get server() {
      if (!server) throw new Error('useAiServices(): the server starts in beforeAll')
      return server
    },
    async service(options = {}) {
      const svc = await aiService(db, this.server, options)
      services.push(svc)
      return svc
    },
  }
}

export async function startAiChat(svc: TestService, flow: unknown, isStreamEnabled: boolean) {
  const imported = await importOverHttp(svc, flow)
  await publishOverHttp(svc, imported.id)
  const res = await svc.call('POST', `/v1/flows/${imported.id}/startChat`, { json: { isStreamEnabled } })
  expect(res.status).toBe(200)
  return { ...startChatResponseSchema.parse(res.body), flowId: imported.id as string }
}

export const say = (svc: TestService, sessionId: string, body: unknown) =>
  svc.call('POST', `/v1/sessions/${sessionId}/continueChat`, { json: body })

export const texts = (body: unknown) =>
  (chatStepResultSchema.parse(body).messages ?? []).map((m) => (m.content as { plainText?: string }).plainText ?? '')

export interface StreamRead {
  status: number
  headers: Headers
  parts: StreamPart[]
  text: string
  /** The error body of a refused request. */
  body?: any
}

/** POSTs streamMessage and reads the whole answer with the protocol's parser. */
export async function streamMessage(
  svc: TestService,
  sessionId: string,
  body: unknown = {},
  headers: Record<string, string> = {},
): Promise<StreamRead> {
  const response = await svc.app.request(`/v1/sessions/${sessionId}/streamMessage`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
  if (response.status !== 200)
    return { status: response.status, headers: response.headers, parts: [], text: '', body: await response.json() }
  const parser = createStreamParser()
  const parts: StreamPart[] = []
  const reader = response.body!.getReader()
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) parts.push(...parser.push(chunk.value))
  parts.push(...parser.end())
  const text = parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('')
  return { status: response.status, headers: response.headers, parts, text }
}
