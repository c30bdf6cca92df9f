import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { cutToBytes } from '../../../../src/service/engine/core/byte-budget'
import { createEngine } from '../../../../src/service/engine/index'
import { closeSandbox } from '../../../../src/service/engine/sandbox/sandbox'
import { buildFlow, Conversation, input, text, varId } from '../support/flow-builder'

afterAll(closeSandbox)
afterEach(() => vi.restoreAllMocks())

const MiB = 1024 * 1024
const responseBytes = (outcome: { response: unknown }) => Buffer.byteLength(JSON.stringify(outcome.response))

/** A bubble showing `{{Big}}`, and a jump back to it: each pass adds the value to the response. */
const loopingBubble = () =>
  buildFlow({
    variables: ['Big'],
    groups: [
      {
        id: 'g',
        blocks: [text('show', '{{Big}}'), { id: 'again', type: 'Jump', options: { groupId: 'g', blockId: 'show' } }],
      },
    ],
  })

describe('the byte budget of a step', () => {
  it('stops a small flow looping a bubble over a large variable, with a clear log', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const conversation = new Conversation(loopingBubble(), createEngine({ responseByteBudget: MiB }))
    const outcome = await conversation.start({ prefilledVariables: { Big: 'x'.repeat(60_000) } })
    expect(responseBytes(outcome)).toBeLessThan(1.1 * MiB)
    expect(outcome.response.messages?.length).toBeGreaterThan(3)
    expect(outcome.ended).toBe(true)
    expect(outcome.response.logs).toContainEqual({
      status: 'error',
      description: `The flow produced more than ${MiB} bytes in one step and was stopped`,
    })
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/went over its response budget of 1048576 bytes \(RESPONSE_BYTE_BUDGET\)/))
  })

  it('stops text that doubles itself on every pass before it is built', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const flow = buildFlow({
      variables: ['A'],
      groups: [
        {
          id: 'g',
          blocks: [
            // Not code (a syntax error), so its text is the value: each pass doubles it.
            { id: 'double', type: 'Set variable', options: { variableId: varId('A'), expressionToEvaluate: '{{A}} {{A}}' } },
            { id: 'again', type: 'Jump', options: { groupId: 'g', blockId: 'double' } },
          ],
        },
      ],
    })
    const engine = createEngine({ stepByteBudget: 256 * 1024 })
    const outcome = await new Conversation(flow, engine).start({ prefilledVariables: { A: 'abcdefgh' } })
    expect(outcome.ended).toBe(true)
    expect(String(outcome.state.variables[varId('A')]).length).toBeLessThan(256 * 1024)
    expect(outcome.response.logs?.at(-1)?.description).toMatch(/more than 262144 bytes in one step/)
  })

  it('keeps the answer it accepted when the walk after it goes over', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const flow = buildFlow({
      variables: ['Big'],
      groups: [
        {
          id: 'ask',
          blocks: [input('q', 'text input', { variableId: varId('Big') }), { id: 'go', type: 'Jump', options: { groupId: 'g' } }],
        },
        { id: 'g', blocks: [text('show', '{{Big}}'), { id: 'again', type: 'Jump', options: { groupId: 'g', blockId: 'show' } }] },
      ],
    })
    const conversation = new Conversation(flow, createEngine({ responseByteBudget: 64 * 1024 }))
    await conversation.start()
    const outcome = await conversation.answer('y'.repeat(20_000))
    expect(outcome.answers).toEqual([{ blockId: 'q', groupId: 'ask', variableId: varId('Big'), value: 'y'.repeat(20_000) }])
    expect(outcome.ended).toBe(true)
    expect(responseBytes(outcome)).toBeLessThan(70 * 1024)
  })

  it('leaves ordinary steps alone', async () => {
    const outcome = await new Conversation(loopingBubble(), createEngine()).start({ prefilledVariables: { Big: 'small' } })
    // The loop guard (blocks per step) stops this one, not the byte budget.
    expect(outcome.response.messages).toHaveLength(500)
    expect(outcome.response.logs?.[0]?.description).toMatch(/ran 1000 blocks/)
  })
})

describe('cutToBytes', () => {
  it('keeps the longest start within the bytes, never half a character', () => {
    const text = 'aé€👋z'
    expect([0, 1, 2, 3, 5, 6, 9, 10, 11].map((bytes) => cutToBytes(text, bytes))).toEqual([
      '',
      'a',
      'a',
      'aé',
      'aé',
      'aé€',
      'aé€',
      'aé€👋',
      'aé€👋z',
    ])
    for (let bytes = 0; bytes < 12; bytes++) expect(Buffer.byteLength(cutToBytes(text, bytes))).toBeLessThanOrEqual(bytes)
    expect(cutToBytes('x'.repeat(10), 1_000)).toBe('x'.repeat(10))
  })
})
