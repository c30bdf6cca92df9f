import { describe, expect, test } from 'vitest'
import { z } from 'zod/mini'
import { numeric } from '../../src/protocol/common'
import { themeSchema } from '../../src/protocol/theme'

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

test('a theme font is a name or a {type, family, url} object', () => {
  expect(themeSchema.parse({ general: { font: 'Inter' } }).general?.font).toBe('Inter')
  expect(themeSchema.parse({ general: { font: { type: 'Google', family: 'Inter' } } }).general?.font).toEqual({ type: 'Google', family: 'Inter' })
  expect(themeSchema.safeParse({ general: { font: 12 } }).success).toBe(false)
})
