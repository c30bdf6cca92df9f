import { describe, expect, it } from 'vitest'
// Loaded up front: the conversation imports this chunk when the flow remembers visitors.
import '../../../../src/widget/chat/memory/remembered'
import { memoryStore, publishedFlow, REMEMBER, settle, setupConversation, text, textInput } from '../fake-client'

describe('starting over at the visitor’s request', () => {
  it('forgets the conversation, starts a new result with startOver, and says it started over', async () => {
    const store = memoryStore()
    const { conversation, calls, events } = setupConversation(
      { published: publishedFlow({ settings: REMEMBER }), replies: [{ messages: [text('m2', 'And your age?')], input: textInput('in2') }] },
      { memory: store.memory },
    )
    conversation.start()
    await settle()
    conversation.send('Ada')
    await settle()
    conversation.reset('requested')
    await settle()
    expect(calls.start.map((call) => call.body)).toEqual([{ isStreamEnabled: true }, { isStreamEnabled: true, startOver: true }])
    expect(conversation.notice.value).toBe('requested')
    expect(conversation.stage.value.tag).toBe('waiting-input')
    expect(conversation.transcript.count.value).toBe(1)
    expect(events.of('flowchat:start').at(-1)).toMatchObject({ resumed: false, restartedBecause: 'requested' })
    expect(store.saved?.entries).toHaveLength(1)
  })
})
