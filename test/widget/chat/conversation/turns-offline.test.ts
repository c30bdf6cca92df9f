import { afterEach, beforeEach, describe, expect, it } from 'vitest'
// Loaded up front, as a page that remembers users has it by the time a chat saves.
import '../../../../src/widget/chat/memory/remembered'
import { TransportError } from '../../../../src/widget/transport/index'
import { guests, memoryStore, publishedFlow, REMEMBER, settle, setupConversation, text, textInput } from '../fake-client'

/** The browser's network state as `navigator.onLine` says it, and its `online` event. */
let offline = false
beforeEach(() => {
  offline = false
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => !offline })
})
afterEach(() => {
  Reflect.deleteProperty(navigator, 'onLine')
})
const goOnline = () => {
  offline = false
  dispatchEvent(new Event('online'))
}

const next = { messages: [text('m2', 'Favourite color?')], input: textInput('in2') }

describe('an answer given offline', () => {
  it('waits for the network (kept, said, not an error) and is sent once, under its key, when the browser is back online', async () => {
    const { conversation, calls, events } = setupConversation({ replies: [next] })
    conversation.start()
    await settle()
    const key = conversation.input.value?.answerKey
    offline = true
    conversation.send('Ada')
    await settle()
    expect(calls.continue).toEqual([])
    const [bubble] = guests(conversation)
    expect(bubble?.status.value).toBe('waiting')
    // The next step needs the service: no input is offered meanwhile.
    expect(conversation.input.value).toBeNull()
    expect(events.of('flowchat:log').map((log) => log.code)).toEqual(['waiting-for-network'])
    expect(events.of('flowchat:error')).toEqual([])

    goOnline()
    await settle()
    expect(calls.continue).toEqual([{ sessionId: 's1', message: 'Ada', key }])
    expect(bubble?.status.value).toBe('sent')
    expect(events.of('flowchat:answer')).toEqual([{ message: 'Ada' }])
    expect(conversation.input.value?.input.id).toBe('in2')
  })

  it('an answer whose request failed as the connection went waits too, and goes again under the same key', async () => {
    const lost = new TransportError('network', 'Could not reach the flow service')
    const { conversation, calls } = setupConversation({ replies: [lost, next] })
    conversation.start()
    await settle()
    conversation.send('Ada')
    offline = true
    await settle()
    expect(guests(conversation)[0]?.status.value).toBe('waiting')
    goOnline()
    await settle()
    expect(calls.continue.map((call) => call.key)).toEqual([calls.continue[0]!.key, calls.continue[0]!.key])
    expect(conversation.input.value?.input.id).toBe('in2')
  })

  it('is kept in the remembered record, so a reload still offline waits with it and sends it once online', async () => {
    const store = memoryStore()
    const first = setupConversation({ published: publishedFlow({ settings: REMEMBER }) }, { memory: store.memory })
    first.conversation.start()
    await settle()
    offline = true
    first.conversation.send('Ada')
    await settle()
    first.conversation.dispose()
    expect(store.saved?.stage).toMatchObject({ tag: 'sending', reply: { message: 'Ada', shown: true } })

    const again = setupConversation({ published: publishedFlow({ settings: REMEMBER }), replies: [next] }, { memory: store.memory })
    again.conversation.start()
    await settle()
    expect(again.calls.continue).toEqual([])
    expect(guests(again.conversation).map((entry) => [entry.text.value, entry.status.value])).toEqual([['Ada', 'waiting']])
    goOnline()
    await settle()
    expect(again.calls.continue.map((call) => call.message)).toEqual(['Ada'])
    expect(again.conversation.input.value?.input.id).toBe('in2')
  })

  it('a chat removed while its answer waits stops waiting', async () => {
    const { conversation, calls } = setupConversation({ replies: [next] })
    conversation.start()
    await settle()
    offline = true
    conversation.send('Ada')
    await settle()
    conversation.dispose()
    goOnline()
    await settle()
    expect(calls.continue).toEqual([])
  })
})
