import { describe, expect, it } from 'vitest'
import { trustedForwardedValue } from '../../../src/service/http/forwarded'

describe('trustedForwardedValue', () => {
  it('ignores the header when no proxy is trusted', () => {
    expect(trustedForwardedValue('203.0.113.1', 0)).toBeUndefined()
  })

  it('counts trusted hops from the right, so entries the client wrote are never used', () => {
    expect(trustedForwardedValue('6.6.6.6, 203.0.113.1', 1)).toBe('203.0.113.1')
    expect(trustedForwardedValue('6.6.6.6, 203.0.113.1, 198.51.100.9', 2)).toBe('203.0.113.1')
    expect(trustedForwardedValue(' 203.0.113.1 ', 1)).toBe('203.0.113.1')
  })

  it('takes the leftmost entry when fewer proxies wrote one than are trusted', () => {
    expect(trustedForwardedValue('203.0.113.1', 3)).toBe('203.0.113.1')
  })

  it('has no value for a missing or empty entry', () => {
    expect(trustedForwardedValue(undefined, 1)).toBeUndefined()
    expect(trustedForwardedValue('203.0.113.1, ', 1)).toBeUndefined()
  })
})
