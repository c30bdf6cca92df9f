import { describe, expect, it } from 'vitest'
import { findUnstorableValue, hasUnstorableText, jsonDepthExceeds } from '../../../src/service/http/json-guard'

describe('jsonDepthExceeds', () => {
  it('counts nesting of arrays and objects', () => {
    expect(jsonDepthExceeds('{"a":[{"b":[]}]}', 4)).toBe(false)
    expect(jsonDepthExceeds('{"a":[{"b":[]}]}', 3)).toBe(true)
    expect(jsonDepthExceeds('['.repeat(1_000_000), 64)).toBe(true)
  })

  it('ignores brackets inside strings, including escaped quotes', () => {
    expect(jsonDepthExceeds('{"a":"[[[[[[\\"[[[["}', 1)).toBe(false)
    expect(jsonDepthExceeds('["\\\\",[[]]]', 2)).toBe(true)
  })
})

describe('unstorable values', () => {
  it('flags NUL characters and unpaired surrogates, but not valid pairs', () => {
    expect(hasUnstorableText('a\u0000b')).toBe(true)
    expect(hasUnstorableText('\ud800')).toBe(true)
    expect(hasUnstorableText('x\udc00')).toBe(true)
    expect(hasUnstorableText('\ud83d\ude00 ok')).toBe(false)
    expect(hasUnstorableText('plain')).toBe(false)
  })

  it('finds the path of the first bad string, key or number', () => {
    expect(findUnstorableValue({ a: [{ b: 'ok' }, { c: 'x\u0000' }] })?.path).toBe('a.1.c')
    expect(findUnstorableValue({ a: { '\ud800': 1 } })?.path).toBe('a.\ud800')
    expect(findUnstorableValue({ n: [1, Infinity] })).toEqual({ path: 'n.1', message: 'Number out of range' })
    expect(findUnstorableValue({ fine: [1, 'two', null, true, { x: 1e308 }] })).toBeUndefined()
  })
})
