import { describe, expect, it } from 'vitest'
import type { Block, INPUT_TYPES } from '../../../src/protocol/index'
import { buildBubbleMessage } from '../../../src/service/engine/blocks/bubbles/bubbles'
import { safeRedirectUrl } from '../../../src/service/engine/blocks/logic/client-actions'
import { COMPARISON_OPERATORS, compare } from '../../../src/service/engine/blocks/logic/conditions'
import { toFiniteNumber } from '../../../src/service/engine/core/field-readers'
import { valueForCode } from '../../../src/service/engine/core/variables'
import { LONG_ANSWER_LENGTH, LONG_ANSWERS } from './fixtures/long-answers'
import { buildFlow, Conversation, varId } from './support/flow-builder'

/**
 * Every validator gets every long answer of the corpus. A pattern that backtracks quadratically
 * spends minutes of event loop on these (each almost matches); a linear one spends milliseconds,
 * so the only bound here is the test's own timeout.
 */
const BOUND = { timeout: 2_000 }

const items = [
  { id: 'i1', content: 'Red' },
  { id: 'i2', content: 'Green, light' },
]
const QUESTIONS: Record<(typeof INPUT_TYPES)[number], Record<string, unknown>[]> = {
  'text input': [{}],
  'number input': [{}, { min: 0, max: 10 }],
  'email input': [{}],
  'url input': [{}],
  'phone number input': [{}],
  'date input': [{}, { isRange: true }, { hasTime: true }],
  'rating input': [{}],
  'choice input': [{}, { isMultipleChoice: true }],
  'picture choice input': [{}, { isMultipleChoice: true }],
  'file input': [{}, { isMultipleAllowed: true }],
  cards: [{}],
  // Never stored: payment is not available, any message ends the conversation at it.
  'payment input': [{}],
}

function ask(type: string, options: Record<string, unknown>) {
  const block: Block = { id: 'q', type, options: { variableId: varId('Answer'), ...options } }
  if (type.includes('choice')) block.items = items
  if (type === 'cards') block.items = [{ id: 'c1', title: 'Red', paths: [{ id: 'p1', text: 'Pick' }] }]
  return buildFlow({ variables: ['Answer'], groups: [{ id: 'g', blocks: [block] }] })
}

describe(`answers of ${LONG_ANSWER_LENGTH.toLocaleString('en')} characters`, () => {
  it('have the length the corpus promises', () => {
    for (const { text } of LONG_ANSWERS) expect(text.length).toBeGreaterThan(LONG_ANSWER_LENGTH - 10)
  })

  it.each(Object.entries(QUESTIONS))('reach a verdict quickly for every %s', BOUND, async (type, variants) => {
    for (const options of variants) {
      for (const { text } of LONG_ANSWERS) {
        const conversation = new Conversation(ask(type, options))
        await conversation.start()
        const outcome = await conversation.answer(text)
        // Only free text takes any of them; everything else asks again.
        if (type === 'text input') expect(outcome.ended).toBe(true)
        else expect(outcome.answers).toEqual([])
      }
    }
  })

  it('reach a verdict quickly in every condition operator', BOUND, () => {
    for (const operator of COMPARISON_OPERATORS) {
      for (const { text } of LONG_ANSWERS) {
        expect(typeof compare(text, operator, text)).toBe('boolean')
        expect(typeof compare('1', operator, text)).toBe('boolean')
      }
    }
  })

  it('are read quickly as numbers for code, redirects and markup', BOUND, () => {
    for (const { text } of LONG_ANSWERS) {
      expect(toFiniteNumber(text)).toBeUndefined()
      expect(valueForCode(text)).toBe(text)
      expect(safeRedirectUrl(text) ?? '').toMatch(/^(https:\/\/\S+)?$/)
      const html = buildBubbleMessage({ id: 'b', type: 'text', content: { html: `<p>${text}</p>` } }, (t) => t)
      expect(html?.type ?? 'none').toMatch(/text|none/)
    }
  })
})
