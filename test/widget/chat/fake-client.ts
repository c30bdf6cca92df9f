import type { ChatReplyMessage, ChatStepResult, PublishedFlow, Settings, StartChatResponse } from '../../../src/protocol/index'
import {
  type Conversation,
  type ConversationMemory,
  type ConversationOptions,
  createConversation,
  type FlowChatEventMap,
  type FlowChatEventType,
  type GuestEntry,
  type SavedConversation,
} from '../../../src/widget/chat/index'
import { type ChatEndpoint, type FetchLike, type FlowClient, TransportError } from '../../../src/widget/transport/index'
import type { WebhookWait } from '../../../src/widget/transport/long-poll'

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

/** A flow that remembers users (in localStorage). */
export const REMEMBER: Settings = { typingEmulation: { enabled: false }, general: { rememberUser: { isEnabled: true, storage: 'local' } } }

/** Storage as the element gives it, in a variable: what a reload would find. */
export function memoryStore(initial?: unknown) {
  let data: unknown = initial
  const writes: Array<'session' | 'local'> = []
  const memory: ConversationMemory = {
    load: () => data,
    save: (kind, saved) => {
      writes.push(kind)
      data = JSON.parse(JSON.stringify(saved))
    },
    clear: () => (data = undefined),
  }
  return {
    memory,
    writes,
    get saved() {
      return data as SavedConversation | undefined
    },
  }
}

export const text = (id: string, plainText: string) => ({ id, type: 'text', content: { plainText } })
export const textInput = (id = 'in1', extra: Record<string, unknown> = {}) => ({ id, type: 'text input', ...extra })

export function startResponse(step: ChatStepResult = {}, overrides: Partial<StartChatResponse> = {}): StartChatResponse {
  return { sessionId: 's1', resultId: 'r1', flowId: 'f1', publishedAt: UPDATED_AT, ...step, ...overrides }
}

type Reply = ChatStepResult | TransportError | Promise<ChatStepResult>
type Wait = WebhookWait | TransportError | Promise<WebhookWait>

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

/**
 * A scripted long-poll answer as the service would send it: a wait as JSON, an `http` failure as
 * its status and error body, any other failure as an unreachable service; a promise answers when
 * it settles, unless the request is aborted first.
 */
async function waitResponse(next: Wait | undefined, signal: AbortSignal | undefined): Promise<Response> {
  // Not retried, so a test that runs out of waits fails instead of polling forever.
  if (next === undefined) return json({ error: { code: 'invalid_query', message: 'unexpected listenForWebhook' } }, 400)
  if (next instanceof TransportError) {
    if (next.kind !== 'http') throw new TypeError('Failed to fetch')
    return json({ error: { code: next.code, message: next.message } }, next.status)
  }
  const wait = await new Promise<WebhookWait>((resolve, reject) => {
    signal?.addEventListener('abort', () => reject(new DOMException('The request was aborted', 'AbortError')))
    Promise.resolve(next).then(resolve, reject)
  })
  return json(wait)
}

/** A scripted flow service: each continueChat takes the next reply in order, each long poll the next wait. */
export function fakeClient(
  options: {
    published?: PublishedFlow | TransportError
    /** A set-up refusal an earlier read of the published flow met on this page (a launcher's). */
    refusal?: TransportError
    start?: StartChatResponse | TransportError
    replies?: Reply[]
    waits?: Wait[]
    streamFetch?: FetchLike
    /** The chat API of a real service on loopback (a handoff's), instead of the scripted long poll. */
    chat?: ChatEndpoint
  } = {},
) {
  const calls = {
    published: 0,
    start: [] as Array<{ flow: string; body: unknown }>,
    continue: [] as Array<{ sessionId: string; message: ChatReplyMessage | null; key: string }>,
    listen: [] as Array<{ sessionId: string; waitId: string; timeoutSeconds: number }>,
  }
  const replies = [...(options.replies ?? [])]
  const waits = [...(options.waits ?? [])]
  /** A scripted answer, or (for a promise) one that the conversation can cancel. */
  const answer = <T>(next: T | TransportError | Promise<T> | undefined, what: string, signal?: AbortSignal): Promise<T> => {
    if (next === undefined) throw new Error(`unexpected ${what}`)
    if (next instanceof TransportError) throw next
    if (!(next instanceof Promise)) return Promise.resolve(next)
    return new Promise((resolve, reject) => {
      signal?.addEventListener('abort', () => reject(new TransportError('aborted', 'cancelled')))
      next.then(resolve, reject)
    })
  }
  const published = options.published ?? publishedFlow()
  const start = options.start ?? startResponse({ messages: [text('m1', 'Hello')], input: textInput() })
  const client: FlowClient = {
    async getPublishedFlow() {
      calls.published++
      if (published instanceof TransportError) throw published
      return { publishedFlow: published, version: '3' }
    },
    refusal: () => options.refusal,
    async startChat(flow, body) {
      calls.start.push({ flow, body })
      if (start instanceof TransportError) throw start
      return start
    },
    async continueChat(sessionId, message, key, signal) {
      calls.continue.push({ sessionId, message, key })
      return answer(replies.shift(), 'continueChat', signal)
    },
    // The long poll (transport/long-poll.ts) over the wire format; anything else is the stream's.
    chat: options.chat ?? {
      chatApi: 'https://chat.example',
      timeoutMs: 1_000,
      fetch: async (url, init) => {
        const poll = /\/v1\/sessions\/([^/]+)\/listenForWebhook\?waitId=([^&]+)&timeoutSeconds=(\d+)$/.exec(url)
        if (!poll) return (options.streamFetch ?? (async () => Promise.reject(new Error('unexpected streamMessage'))))(url, init)
        calls.listen.push({
          sessionId: decodeURIComponent(poll[1]!),
          waitId: decodeURIComponent(poll[2]!),
          timeoutSeconds: Number(poll[3]),
        })
        return waitResponse(waits.shift(), init?.signal ?? undefined)
      },
    },
  }
  return { client, calls, replies, waits }
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

export const entriesOf = (conversation: Conversation) => conversation.transcript.chunks.value.flatMap((chunk) => chunk.entries.value)
export const guests = (conversation: Conversation) => entriesOf(conversation).filter((entry): entry is GuestEntry => entry.kind === 'guest')
/** The plain text of every host bubble shown so far. */
export const hostTexts = (conversation: Conversation) =>
  entriesOf(conversation).flatMap((entry) => (entry.kind === 'host' ? [(entry.message.content as { plainText?: string }).plainText] : []))

/**
 * A conversation over a scripted service: idempotency keys `key-1`, `key-2`, …; sleeps return at
 * once unless given; remembered in `memory` when given one (and the flow remembers users).
 */
export function setupConversation(
  options: Parameters<typeof fakeClient>[0] = {},
  extra: { prefilledVariables?: unknown; flow?: string; sleep?: ConversationOptions['sleep']; memory?: ConversationMemory } = {},
) {
  const fake = fakeClient(options)
  const events = recordEvents()
  let keys = 0
  const conversation = createConversation({
    flow: extra.flow ?? 'f1',
    client: fake.client,
    emit: events.emit,
    prefilledVariables: extra.prefilledVariables,
    memory: extra.memory,
    newKey: () => `key-${++keys}`,
    sleep: extra.sleep ?? (async () => {}),
  })
  return { ...fake, events, conversation }
}
