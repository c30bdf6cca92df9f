import { describe, expect, it } from 'vitest'
import type { ChatStepResult } from '../../../../src/protocol/index'
import { TransportError } from '../../../../src/widget/transport/index'
import { guests, hostTexts, settle, setupConversation, startResponse, text, textInput } from '../fake-client'

const unknownCommand = () => new TransportError('http', 'Command event not found', { status: 400, code: 'invalid_body' })
const command = (name: string) => ({ type: 'command', command: name })

/** A promise the test settles itself: an answer the service has not answered yet. */
function deferred<T>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((done) => (resolve = done))
  return { promise, resolve }
}

describe('sendCommand', () => {
  it("runs the flow's command event and plays what it produced, without a guest bubble", async () => {
    const { conversation, calls, events } = setupConversation({ replies: [{ messages: [text('w', 'Wizzzzz')], input: textInput() }] })
    conversation.start()
    await settle()
    await conversation.command('wizz')
    await settle()
    // key-1 is the waiting input's, kept for its answer; the command goes under a key of its own.
    expect(calls.continue).toEqual([{ sessionId: 's1', message: command('wizz'), key: 'key-2' }])
    expect(hostTexts(conversation)).toEqual(['Hello', 'Wizzzzz'])
    expect(guests(conversation)).toEqual([])
    // A command is not an answer: the page is not told one was given.
    expect(events.of('flowchat:answer')).toEqual([])
    expect(conversation.stage.value.tag).toBe('waiting-input')
  })

  it('waits for the answer in flight and goes after it: neither is lost, doubled or overtaken', async () => {
    const answered = deferred<ChatStepResult>()
    const { conversation, calls } = setupConversation({
      replies: [answered.promise, { messages: [text('w', 'Wizzzzz')], input: textInput('in3') }],
    })
    conversation.start()
    await settle()
    conversation.send('Ada')
    const sent = conversation.command('wizz')
    await settle()
    expect(calls.continue.map((call) => call.message)).toEqual(['Ada'])
    answered.resolve({ messages: [text('m2', 'Thanks, Ada')], input: textInput('in2') })
    await sent
    await settle()
    expect(calls.continue.map((call) => [call.message, call.key])).toEqual([
      ['Ada', 'key-1'],
      [command('wizz'), 'key-3'],
    ])
    expect(hostTexts(conversation)).toEqual(['Hello', 'Thanks, Ada', 'Wizzzzz'])
    expect(conversation.input.value?.input.id).toBe('in3')
  })

  it('hides the input while the command is on its way, and gives back what was typed when its path returns to it', async () => {
    const reply = deferred<ChatStepResult>()
    const { conversation } = setupConversation({ replies: [reply.promise] })
    conversation.start()
    await settle()
    conversation.setDraft('Ad')
    const sent = conversation.command('wizz')
    await settle()
    expect(conversation.input.value).toBeNull()
    reply.resolve({ messages: [text('w', 'Wizzzzz')], input: textInput() })
    await sent
    await settle()
    expect(conversation.input.value?.draft.value).toBe('Ad')
  })

  it('changes nothing when the service refuses it (400), and says why to the page and the caller', async () => {
    const { conversation, events } = setupConversation({ replies: [unknownCommand()] })
    conversation.start()
    await settle()
    conversation.setDraft('Ad')
    const before = conversation.input.value
    await expect(conversation.command('nope')).rejects.toMatchObject({
      code: 'command-rejected',
      status: 400,
      message: 'Command event not found',
    })
    await settle()
    expect(conversation.input.value).toBe(before)
    expect(conversation.input.value?.draft.value).toBe('Ad')
    expect(conversation.failure.value).toBeNull()
    expect(hostTexts(conversation)).toEqual(['Hello'])
    expect(events.of('flowchat:error')).toEqual([
      expect.objectContaining({ code: 'command-rejected', status: 400, serviceCode: 'invalid_body' }),
    ])
  })

  it('goes on with the next command after a refused one', async () => {
    const { conversation, calls } = setupConversation({
      replies: [unknownCommand(), { messages: [text('w', 'Wizzzzz')], input: textInput() }],
    })
    conversation.start()
    await settle()
    const results = await Promise.allSettled([conversation.command('nope'), conversation.command('wizz')])
    expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled'])
    expect(calls.continue.map((call) => call.message)).toEqual([command('nope'), command('wizz')])
  })

  it('is refused without a request when the conversation has ended, or the name is not one', async () => {
    const { conversation, calls, events } = setupConversation({ start: startResponse({ messages: [text('m1', 'Bye')] }) })
    conversation.start()
    await settle()
    expect(conversation.stage.value.tag).toBe('ended')
    await expect(conversation.command('wizz')).rejects.toMatchObject({
      code: 'command-rejected',
      message: 'The command "wizz" was not sent: the conversation has ended.',
    })
    await expect(conversation.command('')).rejects.toMatchObject({ code: 'command-rejected' })
    await expect(conversation.command('x'.repeat(201))).rejects.toMatchObject({ code: 'command-rejected' })
    expect(calls.continue).toEqual([])
    expect(events.of('flowchat:error')).toHaveLength(3)
  })

  it('refuses the commands still waiting when the conversation is reset', async () => {
    const answered = deferred<ChatStepResult>()
    const { conversation } = setupConversation({ replies: [answered.promise] })
    conversation.start()
    await settle()
    conversation.send('Ada')
    const waiting = conversation.command('wizz')
    await settle()
    conversation.reset()
    await expect(waiting).rejects.toMatchObject({ code: 'command-rejected', message: expect.stringMatching(/reset or removed/) })
  })

  it('keeps a command that could not reach the service to be sent again with the same key (Retry)', async () => {
    const { conversation, calls } = setupConversation({
      replies: [new TransportError('network', 'offline'), { messages: [text('w', 'Wizzzzz')], input: textInput() }],
    })
    conversation.start()
    await settle()
    await expect(conversation.command('wizz')).rejects.toMatchObject({ code: 'network-error' })
    expect(conversation.failure.value?.recovery).toBe('resend')
    conversation.retry()
    await settle()
    expect(calls.continue.map((call) => call.key)).toEqual(['key-2', 'key-2'])
    expect(hostTexts(conversation)).toEqual(['Hello', 'Wizzzzz'])
  })
})
