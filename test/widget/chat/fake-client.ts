import type { ChatStepResult, PublishedFlow, StartChatResponse } from '../../../src/protocol/index'
import { TransportError, type FetchLike, type FlowClient } from '../../../src/widget/transport/index'
import type { FlowChatEventMap, FlowChatEventType } from '../../../src/widget/chat/index'

export const UPDATED_AT = '2026-01-02T00:00:00.000Z'

export function publishedFlow(overrides: Partial<PublishedFlow> = {}): PublishedFlow {
  return {
    id: 'pf1',
    flowId: 'f1',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: UPDATED_AT,
    events: [],
    groups: [],
    edges: [],
    // Typing emulation off unless a test turns it on: most tests are about order, not timing.
    settings: { typingEmulation: { enabled: false } },
    ...overrides,
  }
}

export const text = (id: string, plainText: string) => ({ id, type: 'text', content: { plainText } })
export const textInput = (id = 'in1', extra: Record<string, unknown> = {}) => ({ id, type: 'text input', ...extra })

export function startResponse(step: ChatStepResult = {}, overrides: Partial<StartChatResponse> = {}): StartChatResponse {
  return { sessionId: 's1', resultId: 'r1', flowId: 'f1', publishedAt: UPDATED_AT, ...step, ...overrides }
}

type Reply = ChatStepResult | TransportError | Promise<ChatStepResult>

/** A scripted flow service: each continueChat takes the next reply in order. */
export function fakeClient(
  options: { published?: PublishedFlow | TransportError; start?: StartChatResponse | TransportError; replies?: Reply[]; streamFetch?: FetchLike } = {},
) {
  const calls = {
    published: 0,
    start: [] as Array<{ flow: string; body: unknown }>,
    continue: [] as Array<{ sessionId: string; message: string | null; key: string }>,
  }
  const replies = [...(options.replies ?? [])]
  const published = options.published ?? publishedFlow()
  const start = options.start ?? startResponse({ messages: [text('m1', 'Hello')], input: textInput() })
  const client: FlowClient = {
    async getPublishedFlow() {
      calls.published++
      if (published instanceof TransportError) throw published
      return { publishedFlow: published, version: '3' }
    },
    async startChat(flow, body) {
      calls.start.push({ flow, body })
      if (start instanceof TransportError) throw start
      return start
    },
    async continueChat(sessionId, message, key, signal) {
      calls.continue.push({ sessionId, message, key })
      const next = replies.shift()
      if (!next) throw new Error('unexpected continueChat')
      if (next instanceof TransportError) throw next
      if (next instanceof Promise) {
        return new Promise((resolve, reject) => {
          signal?.addEventListener('abort', () => reject(new TransportError('aborted', 'cancelled')))
          next.then(resolve, reject)
        })
      }
      return next
    },
    streamTarget: (sessionId) => ({
      chatApi: 'https://chat.example',
      sessionId,
      fetch: options.streamFetch ?? (async () => Promise.reject(new Error('unexpected streamMessage'))),
    }),
  }
  return { client, calls, replies }
}

export function recordEvents() {
  const events: Array<{ type: FlowChatEventType; detail: unknown }> = []
  const emit = <K extends FlowChatEventType>(type: K, detail: FlowChatEventMap[K]) => {
    events.push({ type, detail })
  }
  const of = <K extends FlowChatEventType>(type: K) =>
    events.filter((event) => event.type === type).map((event) => event.detail as FlowChatEventMap[K])
  return { emit, events, of }
}

/** Lets pending promise chains (fetch mocks, state updates) run. */
export const settle = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve()
  await new Promise((resolve) => setTimeout(resolve, 0))
}
