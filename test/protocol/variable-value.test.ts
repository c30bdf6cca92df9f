import { describe, expect, test } from 'vitest'
import { variableValue } from '../../src/protocol/variable-value'

describe('variable values', () => {
  test('strings, numbers, booleans, lists of strings and null', () => {
    for (const value of ['a', 0, true, ['a', 'b'], [], null]) expect(variableValue.parse(value)).toEqual(value)
  })

  test('nothing else', () => {
    for (const value of [{ a: 1 }, [1], ['a', 2], undefined]) expect(variableValue.safeParse(value).success, JSON.stringify(value)).toBe(false)
  })
})
