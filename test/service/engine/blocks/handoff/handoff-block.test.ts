import { afterAll, describe, expect, it } from 'vitest'
import type { Block } from '../../../../../src/protocol/index'
import { createEngine } from '../../../../../src/service/engine/index'
import { closeSandbox } from '../../../../../src/service/engine/sandbox/sandbox'
import { buildFlow, Conversation, edge, text, texts, varId } from '../../support/flow-builder'

afterAll(closeSandbox)

const handoff = (options: Record<string, unknown> = {}): Block => ({
  id: 'ask',
  type: 'handoff',
  outgoingEdgeId: 'after-person',
  options: { waitingMessage: 'One moment {{Name}}, someone is coming.', variableIds: [varId('Email'), 'unknown'], ...options },
  items: [{ id: 'no-answer', outgoingEdgeId: 'after-nobody' }],
})

const flowWith = (block: Block) =>
  buildFlow({
    variables: ['Name', 'Email'],
    groups: [
      { id: 'start', blocks: [text('hello', 'Hello'), block] },
      { id: 'person', blocks: [text('thanks', 'Thanks, {{Email}}')] },
      { id: 'nobody', blocks: [text('sorry', 'Sorry, no one is free.')] },
    ],
    edges: [edge('after-person', 'ask', 'person'), edge('after-nobody', 'ask', 'nobody', { itemId: 'no-answer' })],
  })

// Wednesday 26 November 2026, 10:30 in Paris (09:30 UTC).
const WEDNESDAY_MORNING = new Date('2026-11-26T09:30:00.000Z')
const PARIS_OFFICE = { timeZone: 'Europe/Paris', hours: [{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', to: '17:00' }] }

describe('handoff block', () => {
  it('waits for a person: the waiting message, the handoff action and a deadline from the timeout', async () => {
    const conversation = new Conversation(flowWith(handoff({ timeoutSeconds: 90 })), undefined, { now: () => WEDNESDAY_MORNING })
    const start = await conversation.start({ prefilledVariables: { Name: 'Ada' } })
    expect(texts(start)).toEqual(['Hello', 'One moment Ada, someone is coming.'])
    const action = start.response.clientSideActions?.[0]
    expect(action).toMatchObject({ type: 'handoff', handoff: { handoffId: expect.any(String) }, expectsDedicatedReply: true })
    const { handoffId } = action!.handoff as { handoffId: string }
    expect(start.state.awaiting).toEqual({
      kind: 'handoff',
      groupId: 'start',
      blockId: 'ask',
      handoffId,
      deadline: '2026-11-26T09:31:30.000Z',
      variables: [{ id: varId('Email'), name: 'Email' }],
    })
    expect(start.ended).toBe(false)
  })

  it('waits two minutes when the block names no timeout', async () => {
    const conversation = new Conversation(flowWith(handoff()), undefined, { now: () => WEDNESDAY_MORNING })
    const start = await conversation.start()
    expect(start.state.awaiting).toMatchObject({ deadline: '2026-11-26T09:32:00.000Z' })
  })

  it('goes on from the block edge with the variables the person set, only those the block shows', async () => {
    const flow = flowWith(handoff())
    const conversation = new Conversation(flow)
    const start = await conversation.start()
    const { handoffId } = start.state.awaiting as { handoffId: string }
    const engine = createEngine()
    const ended = await engine.resumeHandoff(flow, start.state, {
      handoffId,
      outcome: 'ended',
      variables: { Email: 'ada@example.com', Name: 'Mallory' },
    })
    expect(texts(ended)).toEqual(['Thanks, ada@example.com'])
    expect(ended.state.variables[varId('Email')]).toBe('ada@example.com')
    expect(ended.state.variables[varId('Name')]).toBeUndefined()
    expect(ended.ended).toBe(true)
  })

  it('takes the "no one answered" exit when no one answered or the visitor left', async () => {
    const flow = flowWith(handoff())
    const start = await new Conversation(flow).start()
    const { handoffId } = start.state.awaiting as { handoffId: string }
    const engine = createEngine()
    for (const outcome of ['unanswered', 'left'] as const) {
      const next = await engine.resumeHandoff(flow, start.state, { handoffId, outcome, variables: { Email: 'x@example.com' } })
      expect(texts(next)).toEqual(['Sorry, no one is free.'])
    }
  })

  it('refuses a resume for another handoff, and typed answers while waiting', async () => {
    const flow = flowWith(handoff())
    const conversation = new Conversation(flow)
    const start = await conversation.start()
    await expect(createEngine().resumeHandoff(flow, start.state, { handoffId: 'another', outcome: 'ended' })).rejects.toMatchObject({
      code: 'not_waiting_for_handoff',
    })
    await expect(conversation.answer('hello?')).rejects.toMatchObject({ code: 'waiting_for_handoff' })
  })

  describe('opening hours', () => {
    it('asks a person within the hours, in the block time zone', async () => {
      const start = await new Conversation(flowWith(handoff({ openingHours: PARIS_OFFICE })), undefined, {
        now: () => WEDNESDAY_MORNING,
      }).start()
      expect(start.state.awaiting).toMatchObject({ kind: 'handoff' })
    })

    it('takes the "no one answered" exit at once outside them, asking no one', async () => {
      // 08:30 in Paris is 07:30 UTC: open in UTC terms if the zone were ignored (from 09:00 UTC it would not be).
      const early = new Date('2026-11-26T07:30:00.000Z')
      const saturday = new Date('2026-11-28T10:00:00.000Z')
      for (const now of [early, saturday]) {
        const start = await new Conversation(flowWith(handoff({ openingHours: PARIS_OFFICE })), undefined, { now: () => now }).start()
        expect(texts(start)).toEqual(['Hello', 'Sorry, no one is free.'])
        expect(start.response.clientSideActions).toBeUndefined()
        expect(start.response.logs?.[0]).toMatchObject({
          status: 'info',
          description: expect.stringContaining('Outside the opening hours'),
        })
      }
    })

    it('follows the time zone rather than the server clock (16:30 UTC is 17:30 in Paris: closed)', async () => {
      const start = await new Conversation(flowWith(handoff({ openingHours: PARIS_OFFICE })), undefined, {
        now: () => new Date('2026-11-26T16:30:00.000Z'),
      }).start()
      expect(texts(start)).toContain('Sorry, no one is free.')
    })

    it('runs a slot past midnight into the next day', async () => {
      const night = { timeZone: 'UTC', hours: [{ days: ['fri'], from: '22:00', to: '02:00' }] }
      const saturdayOneAm = new Date('2026-11-28T01:00:00.000Z')
      const start = await new Conversation(flowWith(handoff({ openingHours: night })), undefined, { now: () => saturdayOneAm }).start()
      expect(start.state.awaiting).toMatchObject({ kind: 'handoff' })
    })

    it('ignores hours in a time zone it does not know, with a warning', async () => {
      const start = await new Conversation(flowWith(handoff({ openingHours: { timeZone: 'Mars/Olympus', hours: [] } }))).start()
      expect(start.state.awaiting).toMatchObject({ kind: 'handoff' })
      expect(start.response.logs?.[0]).toMatchObject({ status: 'warning' })
    })
  })
})
