import { describe, expect, it } from 'vitest'
import type { ChatStepResult } from '../../../../src/protocol/index'
import type { Conversation, ConversationMemory } from '../../../../src/widget/chat/index'
import { MAX_SAVED_ENTRIES } from '../../../../src/widget/chat/memory/remembered'
import { parseSavedConversation } from '../../../../src/widget/chat/memory/saved-schema'
import { TransportError } from '../../../../src/widget/transport/index'
import {
  type fakeClient,
  memoryStore,
  publishedFlow,
  REMEMBER,
  settle,
  setupConversation,
  startResponse,
  text,
  textInput,
  UPDATED_AT,
} from '../fake-client'

/** A conversation of a flow that remembers users, in `memory`. */
const setup = ({ memory, ...options }: Parameters<typeof fakeClient>[0] & { memory: ConversationMemory }) =>
  setupConversation({ published: publishedFlow({ settings: REMEMBER }), ...options }, { memory })

const texts = (conversation: Conversation) =>
  conversation.transcript.chunks.value
    .flatMap((chunk) => chunk.entries.value)
    .map((entry) =>
      entry.kind === 'host'
        ? String((entry.message.content as { plainText?: string }).plainText)
        : entry.kind === 'guest'
          ? `> ${entry.text.value}`
          : `${entry.agent?.name ?? entry.author}: ${entry.text}`,
    )

/** A first visit: start, answer once, and leave the saved record behind. */
async function firstVisit(replies: ChatStepResult[] = [{ messages: [text('m2', 'And your age?')], input: textInput('in2') }]) {
  const store = memoryStore()
  const { conversation } = setup({ memory: store.memory, replies })
  conversation.start()
  await settle()
  conversation.send('Ada')
  await settle()
  conversation.dispose()
  return store
}

describe('a command in a remembered conversation', () => {
  it('rejects (the caller hears) when the service forgot the resumed session, and a new conversation starts', async () => {
    const store = await firstVisit()
    const gone = new TransportError('http', 'Expired', { status: 404, code: 'session_not_found' })
    const { conversation, calls, events } = setup({
      memory: store.memory,
      replies: [gone],
      start: startResponse({ input: textInput() }, { sessionId: 's2' }),
    })
    conversation.start()
    await settle()
    await expect(conversation.command('wizz')).rejects.toMatchObject({ code: 'session-expired' })
    await settle()
    expect(calls.continue.map((call) => call.message)).toEqual([{ type: 'command', command: 'wizz' }])
    expect(events.of('flowchat:start').at(-1)).toMatchObject({ sessionId: 's2', restartedBecause: 'expired' })
  })
})

describe('remembered conversations', () => {
  it('saves what was shown, the session and the waiting input, where the flow says', async () => {
    const store = await firstVisit()
    expect(store.writes.every((kind) => kind === 'local')).toBe(true)
    expect(parseSavedConversation(store.saved)).toBeDefined()
    expect(store.saved).toMatchObject({ sessionId: 's1', resultId: 'r1', publishedAt: UPDATED_AT, stage: { tag: 'waiting-input' } })
    expect(store.saved?.entries.map((entry) => entry.kind)).toEqual(['host', 'guest', 'host'])
    expect(store.saved?.stage).toMatchObject({ tag: 'waiting-input', input: { id: 'in2' } })
  })

  it('a reload shows the same conversation and continues the same session, without startChat', async () => {
    const store = await firstVisit()
    const { conversation, calls, events } = setup({ memory: store.memory, replies: [{ messages: [text('m3', 'Done')] }] })
    conversation.start()
    await settle()
    expect(calls.start).toHaveLength(0)
    expect(texts(conversation)).toEqual(['Hello', '> Ada', 'And your age?'])
    expect(conversation.input.value?.input.id).toBe('in2')
    expect(events.of('flowchat:start')).toEqual([{ sessionId: 's1', resultId: 'r1', resumed: true }])
    conversation.send('36')
    await settle()
    // Under the key the first visit saved with its input: the same from every tab and reload.
    expect(calls.continue).toEqual([{ sessionId: 's1', message: '36', key: 'key-2' }])
    expect(conversation.stage.value.tag).toBe('ended')
    expect(store.saved?.stage).toEqual({ tag: 'ended' })
  })

  it('resends an answer that was in flight at the reload, with its idempotency key', async () => {
    const store = memoryStore()
    const first = setup({ memory: store.memory, replies: [new Promise<ChatStepResult>(() => {})] })
    first.conversation.start()
    await settle()
    first.conversation.send('Ada')
    await settle()
    first.conversation.dispose() // the page went away before the service answered
    expect(store.saved?.stage).toMatchObject({ tag: 'sending', reply: { message: 'Ada', key: 'key-1', shown: true } })

    const second = setup({ memory: store.memory, replies: [{ messages: [text('m2', 'Thanks')], input: textInput('in2') }] })
    second.conversation.start()
    await settle()
    expect(second.calls.continue).toEqual([{ sessionId: 's1', message: 'Ada', key: 'key-1' }])
    expect(texts(second.conversation)).toEqual(['Hello', '> Ada', 'Thanks'])
    expect(second.calls.start).toHaveLength(0)
  })

  it('plays again a step that was received but maybe not shown before the reload', async () => {
    const store = memoryStore()
    const first = setup({ memory: store.memory })
    first.conversation.start()
    await settle()
    const saved = store.saved!
    store.memory.save('local', {
      ...saved,
      entries: [],
      stage: { tag: 'playing', step: startResponse({ messages: [text('m1', 'Hello')], input: textInput() }) },
    })
    const second = setup({ memory: store.memory })
    second.conversation.start()
    await settle()
    expect(texts(second.conversation)).toEqual(['Hello'])
    expect(second.conversation.input.value?.input.id).toBe('in1')
    expect(second.calls.start).toHaveLength(0)
  })

  it('a reload while the chat waits for a webhook shows the waiting message once, and still waits', async () => {
    await import('../../../../src/widget/chat/actions/client-actions')
    const store = memoryStore()
    const never = new Promise<never>(() => {})
    const waiting = startResponse({
      messages: [text('m1', 'Checking your payment'), text('m2', 'This takes a minute')],
      clientSideActions: [
        { type: 'listenForWebhook', listenForWebhook: { waitId: 'w1' }, lastBubbleBlockId: 'm2', expectsDedicatedReply: true },
      ],
    })
    const first = setup({ memory: store.memory, start: waiting, waits: [never] })
    first.conversation.start()
    await settle()
    expect(store.saved?.stage).toMatchObject({ tag: 'running-action', shown: 2 })
    const second = setup({ memory: store.memory, waits: [{ status: 'continued', step: { messages: [text('m3', 'Paid')] } }] })
    second.conversation.start()
    await settle()
    expect(texts(second.conversation)).toEqual(['Checking your payment', 'This takes a minute', 'Paid'])
    expect(second.calls.listen).toHaveLength(1)
    // The step the webhook brought is what a reload would play now, not the wait's again.
    expect(store.saved?.stage.tag).toBe('ended')
  })

  // A visitor mid-chat while the widget is upgraded: the record the previous version saved (where
  // the chat stood as four nullable fields) still brings their chat back.
  it('goes on from a record the previous version saved, waiting on its input with the draft', async () => {
    const store = await firstVisit()
    const { stage: _stage, ...saved } = store.saved!
    store.memory.save('local', {
      ...saved,
      version: 1,
      pending: null,
      step: null,
      input: { input: textInput('in2'), draft: '3' },
      ended: false,
    } as never)
    const { conversation, calls } = setup({ memory: store.memory, replies: [{ messages: [text('m3', 'Done')] }] })
    conversation.start()
    await settle()
    expect(calls.start).toHaveLength(0)
    expect(texts(conversation)).toEqual(['Hello', '> Ada', 'And your age?'])
    expect(conversation.input.value?.input.id).toBe('in2')
    expect(conversation.input.value?.draft.value).toBe('3')
    conversation.send('36')
    await settle()
    expect(calls.continue).toEqual([{ sessionId: 's1', message: '36', key: 'key-1' }])
    expect(store.saved).toMatchObject({ version: 2, stage: { tag: 'ended' } })
  })

  it('resends an answer the previous version saved in flight, with its idempotency key', async () => {
    const store = await firstVisit()
    const { stage: _stage, ...saved } = store.saved!
    const pending = { message: '36', key: 'old-key', shown: false, input: textInput('in2') }
    store.memory.save('local', { ...saved, version: 1, pending, step: null, input: null, ended: false } as never)
    const { conversation, calls } = setup({ memory: store.memory, replies: [{ messages: [text('m3', 'Done')] }] })
    conversation.start()
    await settle()
    expect(calls.continue).toEqual([{ sessionId: 's1', message: '36', key: 'old-key' }])
    expect(texts(conversation)).toEqual(['Hello', '> Ada', 'And your age?', 'Done'])
  })

  it('keep() saves the waiting input as it stands now (the files a file input uploaded), and a reload finds them', async () => {
    const store = await firstVisit()
    const first = setup({ memory: store.memory })
    first.conversation.start()
    await settle()
    const uploaded = 'https://chat.example/v1/files/AAAAAAAAAAAAAAAAAAAAAAAA/a.png'
    first.conversation.input.value!.draft.value = uploaded
    expect(store.saved?.stage).not.toMatchObject({ draft: uploaded })
    first.conversation.keep()
    expect(store.saved?.stage).toMatchObject({ tag: 'waiting-input', draft: uploaded })
    first.conversation.dispose()
    const second = setup({ memory: store.memory })
    second.conversation.start()
    await settle()
    expect(second.conversation.input.value?.draft.value).toBe(uploaded)
  })

  it('sends files as an answer object, and no message for a skipped input, each with its label', async () => {
    const store = memoryStore()
    const { conversation, calls } = setup({ memory: store.memory, replies: [new Promise<ChatStepResult>(() => {})] })
    conversation.start()
    await settle()
    const urls = ['https://chat.example/v1/files/AAAAAAAAAAAAAAAAAAAAAAAA/a.png']
    conversation.send({ type: 'text', text: urls[0]!, attachedFileUrls: urls }, 'File uploaded')
    await settle()
    expect(calls.continue).toEqual([{ sessionId: 's1', message: { type: 'text', text: urls[0], attachedFileUrls: urls }, key: 'key-1' }])
    expect(texts(conversation).at(-1)).toBe('> File uploaded')
    // Saved while in flight: a reload sends the same answer again.
    expect(store.saved?.stage).toMatchObject({ tag: 'sending', reply: { message: { type: 'text', attachedFileUrls: urls } } })
    expect(parseSavedConversation(store.saved)).toBeDefined()
  })

  it('starts fresh, for the same visitor, with a notice when the flow was republished', async () => {
    const store = await firstVisit()
    const { conversation, calls, events } = setup({
      memory: store.memory,
      published: publishedFlow({ settings: REMEMBER, updatedAt: '2026-03-01T00:00:00.000Z' }),
      start: startResponse(
        { messages: [text('m1', 'New hello')], input: textInput() },
        { sessionId: 's2', publishedAt: '2026-03-01T00:00:00.000Z' },
      ),
    })
    conversation.start()
    await settle()
    expect(calls.start.map((call) => call.body)).toEqual([{ isStreamEnabled: true, resultId: 'r1' }])
    expect(texts(conversation)).toEqual(['New hello'])
    expect(conversation.notice.value).toBe('republished')
    expect(events.of('flowchat:start')).toEqual([{ sessionId: 's2', resultId: 'r1', resumed: false, restartedBecause: 'republished' }])
    expect(store.saved?.sessionId).toBe('s2')
  })

  it('starts fresh with a notice when the service no longer has the remembered session', async () => {
    const store = await firstVisit()
    const { conversation, calls } = setup({
      memory: store.memory,
      replies: [new TransportError('http', 'gone', { status: 410, code: 'session_expired' })],
      start: startResponse({ messages: [text('m1', 'Hello again')], input: textInput() }, { sessionId: 's2' }),
    })
    conversation.start()
    await settle()
    conversation.send('36')
    await settle()
    // A new result: the expired one is kept as it was.
    expect(calls.start.map((call) => call.body)).toEqual([{ isStreamEnabled: true }])
    expect(texts(conversation)).toEqual(['Hello again'])
    expect(conversation.notice.value).toBe('expired')
    expect(conversation.stage.value.tag).toBe('waiting-input')
    expect(store.saved?.sessionId).toBe('s2')
  })

  it('starts a new result with the expired notice when the record was last saved longer ago than the flow keeps it', async () => {
    const store = await firstVisit()
    const hours = (n: number) => n * 3_600_000
    store.memory.save('local', { ...store.saved!, savedAt: Date.now() - hours(3) })
    const { conversation, calls, events } = setup({
      memory: store.memory,
      published: publishedFlow({
        settings: { ...REMEMBER, general: { rememberUser: { isEnabled: true, storage: 'local', expiryHours: 2 } } },
      }),
      start: startResponse({ messages: [text('m1', 'Hello again')], input: textInput() }, { sessionId: 's2', resultId: 'r2' }),
    })
    conversation.start()
    await settle()
    expect(calls.continue).toHaveLength(0)
    expect(calls.start.map((call) => call.body)).toEqual([{ isStreamEnabled: true }])
    expect(texts(conversation)).toEqual(['Hello again'])
    expect(conversation.notice.value).toBe('expired')
    expect(conversation.failure.value).toBeNull()
    expect(events.of('flowchat:start')).toEqual([{ sessionId: 's2', resultId: 'r2', resumed: false, restartedBecause: 'expired' }])
    expect(store.saved).toMatchObject({ sessionId: 's2', resultId: 'r2' })
  })

  it('expires after 24 idle hours when the flow sets no expiry, and not before', async () => {
    const hours = (n: number) => n * 3_600_000
    const store = await firstVisit()
    const record = store.saved!
    store.memory.save('local', { ...record, savedAt: Date.now() - hours(23) })
    const recent = setup({ memory: store.memory })
    recent.conversation.start()
    await settle()
    expect(recent.calls.start).toHaveLength(0)
    expect(recent.conversation.notice.value).toBeNull()
    recent.conversation.dispose()
    store.memory.save('local', { ...record, savedAt: Date.now() - hours(25) })
    const old = setup({ memory: store.memory, start: startResponse({ input: textInput() }, { sessionId: 's2' }) })
    old.conversation.start()
    await settle()
    expect(old.calls.start).toHaveLength(1)
    expect(old.conversation.notice.value).toBe('expired')
  })

  it('drops an unreadable record with a log and starts fresh', async () => {
    const store = memoryStore({ version: 99, sessionId: 's0' })
    const { conversation, calls, events } = setup({ memory: store.memory })
    conversation.start()
    await settle()
    expect(events.of('flowchat:log').map((log) => log.code)).toContain('saved-conversation-invalid')
    expect(calls.start).toHaveLength(1)
    expect(texts(conversation)).toEqual(['Hello'])
  })

  it('forgets and does not save when the flow does not remember users', async () => {
    const store = await firstVisit()
    const { conversation, calls } = setup({
      memory: store.memory,
      published: publishedFlow({ settings: { typingEmulation: { enabled: false } } }),
    })
    conversation.start()
    await settle()
    expect(calls.start).toHaveLength(1)
    expect(store.saved).toBeUndefined()
  })

  it('reset() forgets the remembered conversation', async () => {
    const store = await firstVisit()
    const { conversation, calls } = setup({ memory: store.memory })
    conversation.start()
    await settle()
    conversation.reset()
    await settle()
    expect(calls.start).toHaveLength(1)
    expect(texts(conversation)).toEqual(['Hello'])
    expect(store.saved?.entries).toHaveLength(1)
  })

  it('keeps at most MAX_SAVED_ENTRIES bubbles, the newest', async () => {
    const many = Array.from({ length: MAX_SAVED_ENTRIES + 50 }, (_, i) => text(`m${i}`, `Line ${i}`))
    const store = memoryStore()
    const { conversation } = setup({ memory: store.memory, start: startResponse({ messages: many, input: textInput() }) })
    conversation.start()
    await settle()
    expect(store.saved?.entries).toHaveLength(MAX_SAVED_ENTRIES)
    expect(store.saved?.entries.at(-1)).toMatchObject({ kind: 'host', message: { id: `m${MAX_SAVED_ENTRIES + 49}` } })
  })
})

describe('answer labels', () => {
  it('shows the label in the guest bubble and sends the value', async () => {
    const { conversation, calls } = setup({
      memory: memoryStore().memory,
      replies: [{ messages: [text('m2', 'Ok')], input: textInput('in2') }],
    })
    conversation.start()
    await settle()
    conversation.send('plan-pro', 'Pro plan')
    await settle()
    expect(calls.continue[0]?.message).toBe('plan-pro')
    expect(texts(conversation)).toEqual(['Hello', '> Pro plan', 'Ok'])
  })
})
