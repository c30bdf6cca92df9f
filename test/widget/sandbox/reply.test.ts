import { describe, expect, it } from 'vitest'
import { MAX_MESSAGE_LENGTH } from '../../../src/protocol/index'
import { scriptReply } from '../../../src/widget/sandbox/index'

const ok = (value: unknown) => ({ ok: true as const, value })

describe('scriptReply', () => {
  it('sends a returned string as it is', () => {
    expect(scriptReply(ok('plan: team'))).toBe('plan: team')
    expect(scriptReply(ok(''))).toBe('')
    expect(scriptReply(ok('{"already":"json"}'))).toBe('{"already":"json"}')
  })

  it('sends any other value as JSON', () => {
    expect(scriptReply(ok(42))).toBe('42')
    expect(scriptReply(ok(false))).toBe('false')
    expect(scriptReply(ok(['a', 1]))).toBe('["a",1]')
    expect(scriptReply(ok({ score: 9, tags: ['vip'] }))).toBe('{"score":9,"tags":["vip"]}')
  })

  it('sends the empty string for nothing and for every failure', () => {
    expect(scriptReply(ok(undefined))).toBe('')
    expect(scriptReply(ok(null))).toBe('')
    for (const reason of ['timeout', 'error', 'unavailable', 'too_large'] as const) {
      expect(scriptReply({ ok: false, reason, message: 'failed' })).toBe('')
    }
  })

  it('sends the empty string rather than a reply the service would refuse as too long', () => {
    expect(scriptReply(ok('x'.repeat(MAX_MESSAGE_LENGTH)))).toHaveLength(MAX_MESSAGE_LENGTH)
    expect(scriptReply(ok('x'.repeat(MAX_MESSAGE_LENGTH + 1)))).toBe('')
    expect(scriptReply(ok(['x'.repeat(MAX_MESSAGE_LENGTH)]))).toBe('')
  })
})
