import { describe, expect, it } from 'vitest'
import { DEFAULT_TYPING, typingDuration, typingSettings } from '../../../../src/widget/chat/conversation/typing'

describe('typingDuration', () => {
  const typing = { ...DEFAULT_TYPING, speed: 300, maxDelay: 1.5 }

  it('follows words per minute', () => {
    expect(typingDuration('one two three', typing)).toBeCloseTo(600)
  })

  it('is capped by maxDelay seconds', () => {
    expect(typingDuration('word '.repeat(100), typing)).toBe(1500)
  })

  it('counts a bubble without words as one word, and is zero when disabled', () => {
    expect(typingDuration('', typing)).toBeCloseTo(200)
    expect(typingDuration('hello there', { ...typing, enabled: false })).toBe(0)
  })
})

describe('typingSettings', () => {
  it('reads the flow settings and fills what they leave out', () => {
    expect(typingSettings({ typingEmulation: { enabled: true, speed: 300, maxDelay: 1.5 } })).toEqual({
      ...DEFAULT_TYPING,
      speed: 300,
      maxDelay: 1.5,
    })
    expect(typingSettings(undefined)).toEqual(DEFAULT_TYPING)
    expect(typingSettings({ general: { isTypingEmulationEnabled: false } }).enabled).toBe(false)
    expect(typingSettings({ typingEmulation: { speed: -5 } }).speed).toBe(0)
  })
})
