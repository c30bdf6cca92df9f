import { describe, expect, it } from 'vitest'
import type { PublishedFlow } from '../../../src/protocol/index'
import { buildFlow, Conversation, input, text, texts, varId } from './support/flow-builder'

const event = (id: string, type: string, edgeId: string, options: Record<string, unknown> = {}): PublishedFlow['events'][number] => ({
  id,
  type,
  outgoingEdgeId: edgeId,
  options,
})
const fromEvent = (id: string, eventId: string, groupId: string) => ({ id, from: { eventId }, to: { groupId } })

/** A welcome choice; "wizz" says so and returns, "leave" says goodbye, "ping" resumes by itself. */
function commandFlow() {
  return buildFlow({
    groups: [
      {
        id: 'welcome',
        blocks: [text('w', 'Welcome'), input('hi', 'choice input', {}, { items: [{ id: 'i1', content: 'Hi!', outgoingEdgeId: 'e-hey' }] })],
      },
      { id: 'hey', blocks: [text('hey-t', 'Hey there!')] },
      { id: 'wizz', blocks: [text('wizz-t', 'Wizzzzz'), { id: 'ret', type: 'Return' }] },
      { id: 'leave', blocks: [text('leave-t', 'Leaving!')] },
      { id: 'ping', blocks: [text('ping-t', 'Pong')] },
    ],
    edges: [
      { id: 'e-hey', from: { blockId: 'hi', itemId: 'i1' }, to: { groupId: 'hey' } },
      fromEvent('e-wizz', 'ev-wizz', 'wizz'),
      fromEvent('e-leave', 'ev-leave', 'leave'),
      fromEvent('e-ping', 'ev-ping', 'ping'),
    ],
    events: [
      event('ev-wizz', 'command', 'e-wizz', { command: 'wizz' }),
      event('ev-leave', 'command', 'e-leave', { command: 'leave' }),
      event('ev-ping', 'command', 'e-ping', { command: 'ping', resumeAfter: true }),
    ],
  })
}

describe('command events', () => {
  it('runs the command’s path; a Return brings back the input the session waited on', async () => {
    const conversation = new Conversation(commandFlow())
    await conversation.start()
    const wizz = await conversation.answer({ type: 'command', command: 'wizz' })
    expect(texts(wizz)).toEqual(['Wizzzzz'])
    expect(wizz.response.input?.id).toBe('hi')
    expect(texts(await conversation.answer('Hi!'))).toEqual(['Hey there!'])
  })

  it('a path without Return ends the conversation', async () => {
    const conversation = new Conversation(commandFlow())
    await conversation.start()
    const leave = await conversation.answer({ type: 'command', command: 'leave' })
    expect(texts(leave)).toEqual(['Leaving!'])
    expect(leave.ended).toBe(true)
  })

  it('resumeAfter comes back to the waiting input by itself when the path ends', async () => {
    const conversation = new Conversation(commandFlow())
    await conversation.start()
    const ping = await conversation.answer({ type: 'command', command: 'ping' })
    expect(texts(ping)).toEqual(['Pong'])
    expect(ping.response.input?.id).toBe('hi')
    expect(ping.ended).toBe(false)
  })

  it('an unknown command (names are exact) is refused and the state is untouched', async () => {
    const conversation = new Conversation(commandFlow())
    await conversation.start()
    for (const command of ['nope', 'Wizz', ' wizz']) {
      await expect(conversation.answer({ type: 'command', command })).rejects.toMatchObject({
        name: 'EngineError',
        code: 'unknown_command',
      })
    }
    expect(conversation.outcomes).toHaveLength(1)
  })

  it('a text message object is an answer like a string', async () => {
    const conversation = new Conversation(commandFlow())
    await conversation.start()
    expect(texts(await conversation.answer({ type: 'text', text: 'Hi!' }))).toEqual(['Hey there!'])
  })
})

/** Asks a name; reply (and optionally invalidReply) events record what was answered. */
function replyFlow(options: { withReturn: boolean; invalidEvent: boolean }) {
  const replyBlocks = [text('r-t', 'You said {{Content}} to a {{Kind}} input in {{Where}}')]
  if (options.withReturn) replyBlocks.push({ id: 'r-ret', type: 'Return' })
  const names = { contentVariableId: varId('Content'), inputTypeVariableId: varId('Kind'), inputNameVariableId: varId('Where') }
  return buildFlow({
    variables: ['Name', 'Age', 'Content', 'Kind', 'Where'],
    groups: [
      {
        id: 'ask',
        title: 'Ask name',
        blocks: [input('name', 'text input', { variableId: varId('Name') }), input('age', 'number input', { variableId: varId('Age') })],
      },
      { id: 'reply', blocks: replyBlocks },
      { id: 'invalid', blocks: [text('inv-t', 'Not valid: {{Content}}'), { id: 'inv-ret', type: 'Return' }] },
    ],
    edges: [fromEvent('e-reply', 'ev-reply', 'reply'), fromEvent('e-invalid', 'ev-invalid', 'invalid')],
    events: [
      event('ev-reply', 'reply', 'e-reply', names),
      ...(options.invalidEvent ? [event('ev-invalid', 'invalidReply', 'e-invalid', names)] : []),
    ],
  })
}

describe('reply events', () => {
  it('run on every answer with its text, input kind and group title; after Return the answer is saved and the flow goes on', async () => {
    const conversation = new Conversation(replyFlow({ withReturn: true, invalidEvent: false }))
    await conversation.start()
    const outcome = await conversation.answer('Ada')
    expect(texts(outcome)).toEqual(['You said Ada to a text input in Ask name'])
    expect(outcome.response.input?.id).toBe('age')
    expect(outcome.answers).toEqual([expect.objectContaining({ blockId: 'name', value: 'Ada' })])
    expect(outcome.state.variables[varId('Name')]).toBe('Ada')
    expect(outcome.state.returnMark).toBeUndefined()
  })

  it('without Return, the detour ends the conversation and the answer is not saved', async () => {
    const conversation = new Conversation(replyFlow({ withReturn: false, invalidEvent: false }))
    await conversation.start()
    const outcome = await conversation.answer('leave')
    expect(texts(outcome)).toEqual(['You said leave to a text input in Ask name'])
    expect(outcome.ended).toBe(true)
    expect(outcome.answers).toEqual([])
  })

  it('an invalid answer takes the invalidReply event; its Return asks the same input again', async () => {
    const conversation = new Conversation(replyFlow({ withReturn: true, invalidEvent: true }))
    await conversation.start()
    await conversation.answer('Ada')
    const invalid = await conversation.answer('not a number')
    expect(texts(invalid)).toEqual(['Not valid: not a number'])
    expect(invalid.response.input?.id).toBe('age')
    expect(invalid.answers).toEqual([])
    const valid = await conversation.answer('42')
    expect(texts(valid)).toEqual(['You said 42 to a number input in Ask name'])
    expect(valid.answers).toEqual([expect.objectContaining({ blockId: 'age', value: '42' })])
  })

  it('without an invalidReply event, the reply event also sees invalid answers and the replay gets the retry message', async () => {
    const conversation = new Conversation(replyFlow({ withReturn: true, invalidEvent: false }))
    await conversation.start()
    await conversation.answer('Ada')
    const outcome = await conversation.answer('many')
    expect(texts(outcome)).toEqual(['You said many to a number input in Ask name', 'Please enter a valid number.'])
    expect(outcome.response.input?.id).toBe('age')
  })
})
