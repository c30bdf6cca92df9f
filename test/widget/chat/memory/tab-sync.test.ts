import { describe, expect, it } from 'vitest'
import type { ChatStepResult } from '../../../../src/protocol/index'
import type { ConversationMemory } from '../../../../src/widget/chat/index'
// Loaded up front, as a page that remembers users has it by the time a chat saves.
import '../../../../src/widget/chat/memory/remembered'
import { TransportError } from '../../../../src/widget/transport/index'
import { type fakeClient, guests, hostTexts, publishedFlow, REMEMBER, settle, setupConversation, text, textInput } from '../fake-client'

/**
 * One site's local storage as its tabs share it: each tab's memory saves the one record, and the
 * other tabs hear it (as a BroadcastChannel or a storage event would tell them), never the saver.
 * A `deaf` tab hears nothing (asleep in the background); a `lagging` one reads the record as it
 * was until `catchUp()` (another process's storage, not yet in step).
 */
function sharedStorage() {
  let data: unknown
  const listeners = new Map<ConversationMemory, (data: unknown) => void>()
  const lagging = new Map<ConversationMemory, { data: unknown }>()
  const tab = (options: { deaf?: boolean; lagging?: boolean } = {}): ConversationMemory => {
    const memory: ConversationMemory = {
      load: () => (lagging.get(memory) ?? { data }).data,
      save(_kind, saved) {
        data = JSON.parse(JSON.stringify(saved))
        for (const [other, listener] of listeners) if (other !== memory) queueMicrotask(() => listener(data))
      },
      clear: () => (data = undefined),
      watch(listener) {
        if (!options.deaf) listeners.set(memory, listener)
        return () => listeners.delete(memory)
      },
    }
    if (options.lagging) lagging.set(memory, { data: JSON.parse(JSON.stringify(data)) })
    return memory
  }
  return {
    tab,
    catchUp: () => lagging.clear(),
    get saved() {
      return data as { rev?: number; stage: { tag: string; key?: string } } | undefined
    },
    get listening() {
      return listeners.size
    },
  }
}

const openTab = (memory: ConversationMemory, options: Parameters<typeof fakeClient>[0] = {}) =>
  setupConversation({ published: publishedFlow({ settings: REMEMBER }), ...options }, { memory })

const step = (id: string, words: string, input = `in-${id}`): ChatStepResult => ({ messages: [text(id, words)], input: textInput(input) })
const guestTexts = (conversation: Parameters<typeof guests>[0]) => guests(conversation).map((entry) => entry.text.value)

describe('one remembered conversation in two tabs', () => {
  it("shows each tab's answer and the next step in the other, each step answered once under the input's key", async () => {
    const storage = sharedStorage()
    const a = openTab(storage.tab(), { replies: [step('m2', 'Favourite color?')] })
    a.conversation.start()
    await settle()
    const b = openTab(storage.tab(), { replies: [step('m3', 'Favourite food?')] })
    b.conversation.start()
    await settle()
    expect(hostTexts(b.conversation)).toEqual(['Hello'])
    const firstKey = a.conversation.input.value?.answerKey
    expect(b.conversation.input.value?.answerKey).toBe(firstKey)

    a.conversation.send('Ada')
    await settle()
    // B shows A's answer and the step it brought, with A's input (and its key) instead of the stale one.
    expect(guestTexts(b.conversation)).toEqual(['Ada'])
    expect(hostTexts(b.conversation)).toEqual(['Hello', 'Favourite color?'])
    expect(b.conversation.input.value?.input.id).toBe('in-m2')
    expect(b.conversation.input.value?.answerKey).toBe(a.conversation.input.value?.answerKey)

    b.conversation.send('blue')
    await settle()
    expect(hostTexts(a.conversation)).toEqual(['Hello', 'Favourite color?', 'Favourite food?'])
    expect(guestTexts(a.conversation)).toEqual(['Ada', 'blue'])
    expect(a.conversation.input.value?.input.id).toBe('in-m3')
    // Each step went to the service once, from the tab that answered it, under its input's key.
    expect(a.calls.continue.map((call) => [call.message, call.key])).toEqual([['Ada', firstKey]])
    expect(b.calls.continue.map((call) => call.message)).toEqual(['blue'])
    expect(b.calls.continue[0]!.key).not.toBe(firstKey)
    // The tab that only showed a step saved nothing of it: the record is the answering tab's.
    expect(storage.saved?.stage).toMatchObject({ tag: 'waiting-input', key: a.conversation.input.value?.answerKey })
  })

  it("a tab that did not hear of another's answer follows the stored record instead of sending a second answer", async () => {
    const storage = sharedStorage()
    const a = openTab(storage.tab(), { replies: [step('m2', 'Favourite color?')] })
    a.conversation.start()
    await settle()
    const asleep = openTab(storage.tab({ deaf: true }))
    asleep.conversation.start()
    await settle()
    a.conversation.send('Ada')
    await settle()
    expect(hostTexts(asleep.conversation)).toEqual(['Hello'])

    asleep.conversation.send('Grace')
    await settle()
    expect(asleep.calls.continue).toEqual([])
    expect(guestTexts(asleep.conversation)).toEqual(['Ada'])
    expect(hostTexts(asleep.conversation)).toEqual(['Hello', 'Favourite color?'])
    expect(asleep.conversation.input.value?.input.id).toBe('in-m2')
    expect(asleep.events.of('flowchat:log').map((log) => log.code)).toContain('answered-in-another-tab')
    expect(storage.saved?.stage).toMatchObject({ tag: 'waiting-input', key: a.conversation.input.value?.answerKey })
  })

  it('a tab whose answer to the same step the service refused (409) shows the first answer instead, with a log', async () => {
    const storage = sharedStorage()
    let answer!: (step: ChatStepResult) => void
    const slow = new Promise<ChatStepResult>((resolve) => (answer = resolve))
    const a = openTab(storage.tab(), { replies: [slow] })
    a.conversation.start()
    await settle()
    const conflict = new TransportError('http', 'This Idempotency-Key was already used with a different message.', {
      status: 409,
      code: 'conflict',
    })
    // B reads the record as it was: both answer the step before either can know of the other.
    const b = openTab(storage.tab({ deaf: true, lagging: true }), { replies: [conflict] })
    b.conversation.start()
    await settle()
    a.conversation.send('Ada')
    b.conversation.send('Grace')
    await settle()
    // Both went under the input's one key; the service kept A's.
    expect(b.calls.continue[0]!.key).toBe(a.calls.continue[0]!.key)
    expect(b.events.of('flowchat:log').map((log) => log.code)).toContain('answered-in-another-tab')
    expect(b.events.of('flowchat:error')).toEqual([])
    expect(b.conversation.input.value).toBeNull()

    answer(step('m2', 'Favourite color?'))
    await settle()
    storage.catchUp()
    b.conversation.keep()
    expect(guestTexts(b.conversation)).toEqual(['Ada'])
    expect(hostTexts(b.conversation)).toEqual(['Hello', 'Favourite color?'])
    expect(b.conversation.input.value?.input.id).toBe('in-m2')
    expect(b.calls.continue).toHaveLength(1)
  })

  it('a tab removed stops hearing the others', async () => {
    const storage = sharedStorage()
    const a = openTab(storage.tab())
    a.conversation.start()
    await settle()
    expect(storage.listening).toBe(1)
    a.conversation.dispose()
    expect(storage.listening).toBe(0)
  })
})
