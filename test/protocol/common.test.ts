import { describe, expect, test } from 'vitest'
import { z } from 'zod/mini'
import { anyOf, numeric, variableValue } from '../../src/protocol/common'
import { themeSchema } from '../../src/protocol/theme'

describe('anyOf', () => {
  const idOrRef = anyOf(z.string(), z.looseObject({ ref: z.string() }))

  test('takes the first schema that accepts the value, with its output', () => {
    expect(idOrRef.parse('a')).toBe('a')
    expect(idOrRef.parse({ ref: 'b', extra: 1 })).toEqual({ ref: 'b', extra: 1 })
    const converted = anyOf(numeric(), z.boolean())
    expect(converted.parse('2.5')).toBe(2.5)
    expect(converted.parse(false)).toBe(false)
  })

  test('refuses what none accepts, naming the value', () => {
    for (const value of [1, null, undefined, { ref: 2 }, []]) {
      const result = idOrRef.safeParse(value)
      expect(result.success, JSON.stringify(value)).toBe(false)
      expect(result.error?.issues[0]).toMatchObject({ code: 'custom', message: 'Expected one of the allowed shapes' })
    }
  })
})

describe('numeric', () => {
  const schema = z.looseObject({ n: numeric() })

  test('reads numbers and numeric strings as numbers', () => {
    expect(schema.parse({ n: 3 }).n).toBe(3)
    expect(schema.parse({ n: ' 1.5 ' }).n).toBe(1.5)
    expect(schema.parse({ n: null }).n).toBeNull()
    expect(schema.parse({}).n).toBeUndefined()
  })

  test('refuses what is not a finite number', () => {
    for (const n of ['', '  ', 'soon', '1e999', Number.NaN, Number.POSITIVE_INFINITY, true, [1], { n: 1 }]) {
      expect(schema.safeParse({ n }).success, String(n)).toBe(false)
    }
  })
})

describe('variable values', () => {
  test('strings, numbers, booleans, lists of strings and null', () => {
    for (const value of ['a', 0, true, ['a', 'b'], [], null]) expect(variableValue.parse(value)).toEqual(value)
  })

  test('nothing else', () => {
    for (const value of [{ a: 1 }, [1], ['a', 2], undefined])
      expect(variableValue.safeParse(value).success, JSON.stringify(value)).toBe(false)
  })
})

test('a theme font is a name or a {type, family, url} object', () => {
  expect(themeSchema.parse({ general: { font: 'Inter' } }).general?.font).toBe('Inter')
  expect(themeSchema.parse({ general: { font: { type: 'Google', family: 'Inter' } } }).general?.font).toEqual({
    type: 'Google',
    family: 'Inter',
  })
  expect(themeSchema.safeParse({ general: { font: 12 } }).success).toBe(false)
})
