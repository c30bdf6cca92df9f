import { describe, expect, it } from 'vitest'
import { compare, evaluateCondition, isItemVisible } from '../../../../../src/service/engine/blocks/logic/conditions'

describe('compare: every operator, true and false', () => {
  it.each([
    ['Equal to', 'Promoter', 'promoter ', true],
    ['Equal to', 'Promoter', 'Neutral', false],
    ['Equal to', '10', '10.0', true],
    ['Equal to', 10, '10', true],
    ['Not equal', 'a', 'b', true],
    ['Not equal', 'A', 'a', false],
    ['Contains', 'United States', 'states', true],
    ['Contains', 'France', 'states', false],
    ['Does not contain', 'France', 'states', true],
    ['Does not contain', 'United States', 'STATES', false],
    ['Greater than', '30', '21', true],
    ['Greater than', '9', '21', false],
    ['Greater than', 25, '8', true],
    ['Less than', '9', '21', true],
    ['Less than', '30', '21', false],
    ['Greater or equal to', '21', '21', true],
    ['Greater or equal to', '22', '21.5', true],
    ['Greater or equal to', '20', '21', false],
    ['Less or equal to', '21', '21.0', true],
    ['Less or equal to', '2026-01-01', '2026-01-02', true],
    ['Less or equal to', '22', '21', false],
    ['Matches regex', 'ada@example.com', '^[^@]+@example\\.com$', true],
    ['Matches regex', 'ADA', '/^ada$/i', true],
    ['Matches regex', 'ADA', '^ada$', false],
    ['Does not match regex', 'hello', '^\\d+$', true],
    ['Does not match regex', '123', '/^\\d+$/', false],
    ['Starts with', 'Hello world', 'hello', true],
    ['Starts with', 'Hello world', 'world', false],
    ['Ends with', 'Hello world', 'WORLD', true],
    ['Ends with', 'Hello world', 'hello', false],
  ] as const)('%s: %j vs %j → %s', (operator, left, right, expected) => {
    expect(compare(left, operator, right)).toBe(expected)
  })

  it('compares numbers numerically, not as text', () => {
    expect(compare('9', 'Less than', '10')).toBe(true)
    expect(compare('100', 'Greater than', '20')).toBe(true)
  })

  it('orders text when either side is not a number (ISO dates sort correctly)', () => {
    expect(compare('2026-03-01', 'Greater than', '2026-02-28')).toBe(true)
    expect(compare('apple', 'Less than', 'banana')).toBe(true)
  })

  it('Is set / Is empty', () => {
    expect(compare('x', 'Is set', '')).toBe(true)
    expect(compare(0, 'Is set', '')).toBe(true)
    expect(compare(undefined, 'Is set', '')).toBe(false)
    expect(compare('  ', 'Is empty', '')).toBe(true)
    expect(compare([], 'Is empty', '')).toBe(true)
    expect(compare('x', 'Is empty', '')).toBe(false)
  })

  it('an unset variable is neither greater, less, nor containing anything', () => {
    for (const op of ['Greater than', 'Less than', 'Contains', 'Starts with', 'Ends with']) expect(compare(undefined, op, '1')).toBe(false)
    expect(compare(undefined, 'Does not contain', 'x')).toBe(true)
    expect(compare(null, 'Not equal', 'x')).toBe(true)
  })

  it('"Contains" on a multiple-choice answer looks inside each chosen item', () => {
    expect(compare(['Chocolate', 'Vanilla'], 'Contains', 'vanilla')).toBe(true)
    expect(compare(['Chocolate', 'Vanilla'], 'Contains', 'Lime')).toBe(false)
    expect(compare(['Nuts'], 'Does not contain', 'Nut free')).toBe(true)
    expect(compare(['A', 'B'], 'Equal to', 'a, b')).toBe(true)
  })

  it('an unknown operator never matches', () => {
    expect(compare('x', 'Matches soundex', 'x')).toBe(false)
  })

  it('regex on a list: one item matching is a match, "does not match" needs every item to miss', () => {
    expect(compare(['red', 'blue'], 'Matches regex', '^bl')).toBe(true)
    expect(compare(['red', 'blue'], 'Does not match regex', '^bl')).toBe(false)
    expect(compare(['red', 'green'], 'Does not match regex', '^bl')).toBe(true)
  })

  it('an unset subject, an empty or an invalid pattern (backreferences, lookaheads) matches neither way', () => {
    for (const [left, pattern] of [
      [undefined, '.*'],
      ['x', ''],
      ['aa', '(a)\\1'],
      ['ab', '(?=a)ab'],
      ['x', '('],
    ] as const) {
      expect(compare(left, 'Matches regex', pattern)).toBe(false)
      expect(compare(left, 'Does not match regex', pattern)).toBe(false)
    }
  })
})

describe('evaluateCondition', () => {
  const variables = { age: '30', country: 'France', tags: ['a'] }
  const scope = { variables, substitute: (text: string) => text.replace('{{Limit}}', '21') }
  const cmp = (variableId: string, comparisonOperator: string | undefined, value: string) => ({
    id: 'c',
    variableId,
    ...(comparisonOperator ? { comparisonOperator } : {}),
    value,
  })

  it('AND needs every comparison; OR needs one', () => {
    const comparisons = [cmp('age', 'Greater than', '21'), cmp('country', 'Equal to', 'Spain')]
    expect(evaluateCondition({ logicalOperator: 'AND', comparisons }, scope)).toBe(false)
    expect(evaluateCondition({ logicalOperator: 'OR', comparisons }, scope)).toBe(true)
  })

  it('defaults to AND and to "Equal to" when the export omits them', () => {
    expect(evaluateCondition({ comparisons: [cmp('age', undefined, '30'), cmp('country', undefined, 'france')] }, scope)).toBe(true)
    expect(evaluateCondition({ comparisons: [cmp('age', undefined, '30'), cmp('country', undefined, 'spain')] }, scope)).toBe(false)
  })

  it('fills variables in the compared value', () => {
    expect(evaluateCondition({ comparisons: [cmp('age', 'Greater than', '{{Limit}}')] }, scope)).toBe(true)
  })

  it('never matches without comparisons or with malformed content', () => {
    expect(evaluateCondition({ comparisons: [] }, scope)).toBe(false)
    expect(evaluateCondition(null, scope)).toBe(false)
    expect(evaluateCondition({ comparisons: 'x' }, scope)).toBe(false)
  })
})

describe('isItemVisible', () => {
  const scope = { variables: { flavour: ['Lime'] }, substitute: (text: string) => text }
  const condition = (value: string) => ({ comparisons: [{ variableId: 'flavour', comparisonOperator: 'Contains', value }] })

  it('shows items without an enabled display condition', () => {
    expect(isItemVisible({ id: 'x' }, scope)).toBe(true)
    expect(isItemVisible({ id: 'x', displayCondition: { isEnabled: false, condition: condition('Nuts') } }, scope)).toBe(true)
  })
  it('shows an item only when its enabled condition holds', () => {
    expect(isItemVisible({ id: 'x', displayCondition: { isEnabled: true, condition: condition('Lime') } }, scope)).toBe(true)
    expect(isItemVisible({ id: 'x', displayCondition: { isEnabled: true, condition: condition('Nuts') } }, scope)).toBe(false)
  })
})
