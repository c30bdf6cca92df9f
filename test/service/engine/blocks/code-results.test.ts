import { describe, expect, it } from 'vitest'
import { MAX_VALUE_LENGTH, toVariableValue } from '../../../../src/service/engine/blocks/code-results'

describe('toVariableValue', () => {
  it('keeps text, numbers and booleans typed', () => {
    expect(toVariableValue('x')).toBe('x')
    expect(toVariableValue(52)).toBe(52)
    expect(toVariableValue(true)).toBe(true)
    expect(toVariableValue(null)).toBeNull()
  })
  it('writes values JSON cannot hold as text', () => {
    expect(toVariableValue(Number.NaN)).toBe('NaN')
    expect(toVariableValue(Number.POSITIVE_INFINITY)).toBe('Infinity')
  })
  it('turns lists into lists of text and objects into JSON', () => {
    expect(toVariableValue(['a', 1, null, { b: 2 }])).toEqual(['a', '1', '', '{"b":2}'])
    expect(toVariableValue({ a: [1] })).toBe('{"a":[1]}')
  })
  it('refuses results too large to keep in a session', () => {
    expect(toVariableValue('x'.repeat(MAX_VALUE_LENGTH + 1))).toBeUndefined()
    expect(toVariableValue(Array.from({ length: 11 }, () => 'x'.repeat(MAX_VALUE_LENGTH / 10)))).toBeUndefined()
    expect(toVariableValue('x'.repeat(MAX_VALUE_LENGTH))).toHaveLength(MAX_VALUE_LENGTH)
  })
})
