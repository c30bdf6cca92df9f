import { describe, expect, test } from 'vitest'
import { z } from 'zod/mini'
import { anyOf } from '../../src/protocol/any-of'
import { numeric } from '../../src/protocol/common'

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
