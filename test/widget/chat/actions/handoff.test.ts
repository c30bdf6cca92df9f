import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ClientAction } from '../../../../src/protocol/index'
import { STREAM_ATTEMPTS } from '../../../../src/widget/chat/actions/handoff'
import type { AgentEntry, Conversation, GuestEntry, LiveHandoff } from '../../../../src/widget/chat/index'
import { liveHandoff } from '../../../../src/widget/chat/index'
import {
  entriesOf,
  hostTexts,
  memoryStore,
  publishedFlow,
  REMEMBER,
  setupConversation,
  startResponse,
  text,
  textInput,
} from '../fake-client'
import { EventSource, startHandoffService } from './handoff-service'

const ADA = { name: 'Ada', avatarUrl: 'https://cdn.example/ada.png' }

/** The action as the service sends it: after the block's waiting message. */
const handoff = (handoffId = 'h1'): ClientAction => ({
  type: 'handoff',
  handoff: { handoffId },
  lastBubbleBlockId: 'wait',
  expectsDedicatedReply: true,
})
const handoffStart = () => startResponse({ messages: [text('wait', 'Let me find someone for you.')], clientSideActions: [handoff()] })

let service: Awaited<ReturnType<typeof startHandoffService>>

// The runner's chunk and the remembered-conversations chunk, loaded once up front.
beforeAll(() =>
  Promise.all([import('../../../../src/widget/chat/actions/handoff'), import('../../../../src/widget/chat/memory/remembered')]),
)
beforeEach(async () => {
  // A browser's EventSource (happy-dom has none): Node's, which reconnects with Last-Event-ID as browsers do.
  vi.stubGlobal('EventSource', EventSource)
  service = await startHandoffService()
})
afterEach(async () => {
  vi.unstubAllGlobals()
  await service.close()
})

function setup(options: Parameters<typeof setupConversation>[0] = {}, extra: Parameters<typeof setupConversation>[1] = {}) {
  return setupConversation({ start: handoffStart(), chat: service.endpoint, ...options }, extra)
}

/** Waits until `check` passes (the service and the widget talk over real sockets). */
const until = (check: () => void) => vi.waitFor(check, { timeout: 5_000, interval: 10 })
const live = (conversation: Conversation): LiveHandoff => {
  const found = liveHandoff(conversation.stage.value)
  if (!found) throw new Error(`no live handoff (stage ${conversation.stage.value.tag})`)
  return found
}
const agentLines = (conversation: Conversation) =>
  entriesOf(conversation)
    .filter((entry): entry is AgentEntry => entry.kind === 'agent')
    .map((entry) => `${entry.agent?.name ?? entry.author}: ${entry.text}`)
const liveGuests = (conversation: Conversation) =>
  entriesOf(conversation).filter((entry): entry is GuestEntry => entry.kind === 'guest' && entry.live !== undefined)

describe('a conversation handed to a person', () => {
  it('waits for a person, shows what they write with their name, and goes on with the step the flow produced', async () => {
    const { conversation, calls } = setup()
    conversation.start()
    await until(() => expect(live(conversation).status.value).toBe('waiting'))
    expect(hostTexts(conversation)).toEqual(['Let me find someone for you.'])
    expect(conversation.input.value).toBeNull()
    await until(() => expect(service.streams).toBe(1))

    service.claim(ADA)
    service.note('Ada joined the conversation')
    service.say(ADA, 'Hello! How can I help?')
    await until(() => expect(agentLines(conversation)).toEqual(['system: Ada joined the conversation', 'Ada: Hello! How can I help?']))
    expect(live(conversation).status.value).toBe('live')
    expect(live(conversation).agent.value).toEqual(ADA)

    service.end({ messages: [text('m2', 'Thanks for chatting. Anything else?')], input: textInput('in2') })
    await until(() => expect(conversation.input.value?.input.id).toBe('in2'))
    expect(hostTexts(conversation)).toEqual(['Let me find someone for you.', 'Thanks for chatting. Anything else?'])
    // The step came with the event: no continueChat, and the stream is closed.
    expect(calls.continue).toEqual([])
    await until(() => expect(service.streams).toBe(0))
  })

  it("sends the visitor's messages once each with an idempotency key, shown once though the stream repeats them", async () => {
    const { conversation } = setup()
    conversation.start()
    await until(() => expect(service.streams).toBe(1))
    service.claim(ADA)
    await until(() => expect(live(conversation).status.value).toBe('live'))

    expect(live(conversation).send('  My order has not arrived  ')).toBe(true)
    expect(live(conversation).send('   ')).toBe(false)
    expect(live(conversation).send('It was order 42')).toBe(true)
    await until(() => expect(liveGuests(conversation).map((entry) => entry.status.value)).toEqual(['sent', 'sent']))
    expect(liveGuests(conversation).map((entry) => entry.text.value)).toEqual(['My order has not arrived', 'It was order 42'])
    expect(service.events.filter((event) => event.type === 'message').map((event) => event.seq)).toEqual([2, 3])
    const posts = service.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/messages'))
    expect(posts.map((post) => post.body)).toEqual([{ text: 'My order has not arrived' }, { text: 'It was order 42' }])
    expect(new Set(posts.map((post) => post.idempotencyKey)).size).toBe(2)

    // More events after them are still shown (the visitor's own did not move the stream's cursor past them).
    service.say(ADA, 'Let me check.')
    await until(() => expect(agentLines(conversation)).toEqual(['Ada: Let me check.']))
    expect(liveGuests(conversation)).toHaveLength(2)
  })

  it('sends a message again with the same key when its answer was lost, and the service stores it once', async () => {
    const { conversation } = setup()
    conversation.start()
    await until(() => expect(service.streams).toBe(1))
    service.behaviour.failMessages = 2
    live(conversation).send('Are you there?')
    const posts = () => service.requests.filter((request) => request.path.endsWith('/messages'))
    await until(() => expect(posts()).toHaveLength(3))
    await until(() => expect(liveGuests(conversation)[0]?.status.value).toBe('sent'))
    expect(new Set(posts().map((post) => post.idempotencyKey)).size).toBe(1)
    expect(service.events.filter((event) => event.type === 'message')).toHaveLength(1)
    expect(liveGuests(conversation)).toHaveLength(1)
  })

  it('loses nothing and shows nothing twice when the connection drops: the stream resumes after the last event', async () => {
    const { conversation } = setup()
    conversation.start()
    await until(() => expect(service.streams).toBe(1))
    service.claim(ADA)
    service.say(ADA, 'One')
    await until(() => expect(agentLines(conversation)).toEqual(['Ada: One']))
    service.drop()
    service.say(ADA, 'Two (while you were away)')
    service.say(ADA, 'Three')
    await until(() => expect(agentLines(conversation)).toEqual(['Ada: One', 'Ada: Two (while you were away)', 'Ada: Three']))
    service.drop()
    service.say(ADA, 'Four')
    await until(() => expect(agentLines(conversation)).toEqual(['Ada: One', 'Ada: Two (while you were away)', 'Ada: Three', 'Ada: Four']))
    // The browser reconnected by itself, saying where it was.
    expect(service.requests.some((request) => request.lastEventId === '2')).toBe(true)
  })

  it(`follows the conversation by long polling after ${STREAM_ATTEMPTS} streams that never opened`, async () => {
    service.behaviour.stream = 'not-a-stream'
    const { conversation, events } = setup()
    conversation.start()
    await until(() => expect(service.requests.filter((request) => /\/events\?after=/.test(request.path))).toHaveLength(STREAM_ATTEMPTS))
    await until(() => expect(service.requests.some((request) => /poll=1&after=0&timeoutSeconds=25/.test(request.path))).toBe(true))
    service.claim(ADA)
    service.say(ADA, 'Hi, polling works too')
    await until(() => expect(agentLines(conversation)).toEqual(['Ada: Hi, polling works too']))
    service.end({ messages: [text('m2', 'Back to the flow')] })
    await until(() => expect(conversation.stage.value.tag).toBe('ended'))
    expect(hostTexts(conversation)).toEqual(['Let me find someone for you.', 'Back to the flow'])
    expect(events.of('flowchat:log').filter((log) => log.code === 'handoff-interrupted')).toHaveLength(1)
    expect(service.requests.filter((request) => /\/events\?after=/.test(request.path))).toHaveLength(STREAM_ATTEMPTS)
  })

  it('says calmly that it is reconnecting while the service is busy, tells the page once, and recovers', async () => {
    service.behaviour.failPolls = 2
    const { conversation, events } = setup()
    conversation.start()
    await until(() => expect(liveHandoff(conversation.stage.value)?.trouble.value?.id).toBe('handoffReconnecting'))
    await until(() => expect(service.streams).toBe(1))
    expect(live(conversation).trouble.value).toBeNull()
    expect(events.of('flowchat:error')).toEqual([expect.objectContaining({ code: 'handoff-interrupted', retryable: true, status: 503 })])
  })

  it('ends in a clear failure, told to the page, when the service no longer has the session', async () => {
    // Every request of this handoff is refused: the service does not know the session.
    const { conversation, events } = setup({ chat: { ...service.endpoint, chatApi: `${service.url}/elsewhere` } })
    conversation.start()
    await until(() => expect(conversation.failure.value?.detail.code).toBe('session-expired'))
    expect(conversation.failure.value?.recovery).toBe('restart')
    expect(events.of('flowchat:error')).toEqual([expect.objectContaining({ code: 'session-expired', status: 404 })])
  })

  it('leaves the queue: the flow goes on from the block with the step the service sends', async () => {
    const { conversation } = setup()
    conversation.start()
    await until(() => expect(service.streams).toBe(1))
    live(conversation).leave()
    expect(live(conversation).leaving.value).toBe(true)
    await until(() => expect(conversation.stage.value.tag).toBe('ended'))
    expect(hostTexts(conversation)).toEqual(['Let me find someone for you.', 'Maybe next time.'])
    expect(service.requests.filter((request) => request.path.endsWith('/leave'))).toHaveLength(1)
  })

  it('shows the person typing, and tells them (at most every few seconds) that the visitor types', async () => {
    const { conversation } = setup()
    conversation.start()
    await until(() => expect(service.streams).toBe(1))
    service.typingNow(ADA)
    await until(() => expect(live(conversation).agentTyping.value).toBe(true))
    service.say(ADA, 'Done typing')
    await until(() => expect(live(conversation).agentTyping.value).toBe(false))

    const { draft, typed } = live(conversation)
    for (const value of ['H', 'He', 'Hel', 'Hell', 'Hello']) {
      draft.value = value
      typed()
    }
    draft.value = ''
    typed()
    await until(() => expect(service.typing).toEqual([true, false]))
  })

  it('a reload puts the visitor back in the same live conversation, showing what they missed once', async () => {
    const store = memoryStore()
    const first = setup({ published: publishedFlow({ settings: REMEMBER }) }, { memory: store.memory })
    first.conversation.start()
    await until(() => expect(service.streams).toBe(1))
    service.claim(ADA)
    service.say(ADA, 'Before the reload')
    live(first.conversation).send('Me too')
    await until(() => expect(liveGuests(first.conversation)[0]?.status.value).toBe('sent'))
    await until(() => expect(agentLines(first.conversation)).toEqual(['Ada: Before the reload']))
    first.conversation.dispose()
    await until(() => expect(service.streams).toBe(0))
    service.say(ADA, 'While the page reloaded')

    const second = setup({ published: publishedFlow({ settings: REMEMBER }) }, { memory: store.memory })
    second.conversation.start()
    await until(() => expect(agentLines(second.conversation)).toEqual(['Ada: Before the reload', 'Ada: While the page reloaded']))
    expect(second.calls.start).toHaveLength(0)
    // The waiting message and the visitor's message are there once each.
    expect(hostTexts(second.conversation)).toEqual(['Let me find someone for you.'])
    expect(liveGuests(second.conversation).map((entry) => entry.text.value)).toEqual(['Me too'])
    // It asked only for what came after the last event it had shown.
    const lastShown = service.events.find((event) => event.type === 'message' && event.author === 'visitor')!.seq
    expect(service.requests.filter((request) => request.path.includes('poll=1')).at(-1)?.path).toContain(`after=${lastShown}`)
    expect(live(second.conversation).status.value).toBe('live')
    expect(live(second.conversation).agent.value?.name).toBe('Ada')
    // The restored lines were read out on the page before the reload; the new one will be.
    expect(
      entriesOf(second.conversation)
        .filter((entry) => entry.kind === 'agent')
        .map((entry) => (entry as AgentEntry).restored),
    ).toEqual([true, undefined])
  })

  it('sends again after a reload a message that was on its way, with its key, stored once', async () => {
    const store = memoryStore()
    const first = setup({ published: publishedFlow({ settings: REMEMBER }) }, { memory: store.memory })
    first.conversation.start()
    await until(() => expect(service.streams).toBe(1))
    service.behaviour.failMessages = 10
    live(first.conversation).send('Sent just before the reload')
    await until(() => expect(service.events.filter((event) => event.type === 'message')).toHaveLength(1))
    first.conversation.dispose()
    service.behaviour.failMessages = 0

    const second = setup({ published: publishedFlow({ settings: REMEMBER }) }, { memory: store.memory })
    second.conversation.start()
    await until(() => expect(liveGuests(second.conversation).map((entry) => entry.status.value)).toEqual(['sent']))
    const keys = service.requests.filter((request) => request.path.endsWith('/messages')).map((request) => request.idempotencyKey)
    expect(new Set(keys).size).toBe(1)
    expect(service.events.filter((event) => event.type === 'message')).toHaveLength(1)
  })
})
