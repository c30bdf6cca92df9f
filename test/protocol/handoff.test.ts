import { describe, expect, it } from 'vitest'
import { ACTION_PAYLOADS } from '../../src/protocol/action-payloads'
import { handoffEventSchema, handoffPollResponseSchema, typingEventSchema } from '../../src/protocol/handoff'

const at = '2026-11-28T10:00:00.000Z'

// The widget's handoff chunk reads these with the schema kinds its core has (a union and literals
// as checks): they must accept and refuse exactly what the contract says.
describe('the handoff events a visitor reads', () => {
  it('reads each kind of stored event, with its own fields', () => {
    const events = [
      { seq: 1, at, type: 'status', status: 'live', agent: { name: 'Ada', avatarUrl: 'https://cdn.example/ada.png' } },
      { seq: 2, at, type: 'message', author: 'agent', text: 'Hello', agent: { name: 'Ada' } },
      { seq: 3, at, type: 'message', author: 'system', text: 'Ada joined' },
      { seq: 4, at, type: 'continued', step: { messages: [] } },
    ]
    expect(handoffPollResponseSchema.parse({ status: 'ended', events })).toEqual({ status: 'ended', events })
  })

  it.each([
    ['an unknown type', { seq: 1, at, type: 'reaction', text: ':)' }],
    ['an unknown author', { seq: 1, at, type: 'message', author: 'bot', text: 'Hi' }],
    ['an unknown status', { seq: 1, at, type: 'status', status: 'paused' }],
    ['a message without text', { seq: 1, at, type: 'message', author: 'agent' }],
    ['an event without its seq', { at, type: 'message', author: 'agent', text: 'Hi' }],
  ])('refuses %s', (_name, event) => {
    expect(handoffEventSchema.safeParse(event).success).toBe(false)
  })

  it('reads typing, and the action naming the handoff', () => {
    expect(typingEventSchema.safeParse({ author: 'agent', typing: true }).success).toBe(true)
    expect(typingEventSchema.safeParse({ author: 'someone', typing: true }).success).toBe(false)
    expect(ACTION_PAYLOADS.handoff.safeParse({ handoffId: 'h1' }).success).toBe(true)
    expect(ACTION_PAYLOADS.handoff.safeParse({}).success).toBe(false)
  })
})
