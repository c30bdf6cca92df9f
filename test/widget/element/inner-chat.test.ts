import { describe, expect, it } from 'vitest'
import { forwardAttributes, upgradePrefilled } from '../../../src/widget/element/inner-chat'

describe('launcher helpers', () => {
  it('moves prefilledVariables set before definition onto the accessor', () => {
    const seen: unknown[] = []
    const element = document.createElement('div') as HTMLDivElement & { prefilledVariables: Record<string, string> | undefined }
    element.prefilledVariables = { Name: 'Ada' } // an own property, as before upgrade
    Object.defineProperty(Object.getPrototypeOf(element), 'prefilledVariables', {
      configurable: true,
      get: () => seen.at(-1),
      set: (value) => seen.push(value),
    })
    try {
      upgradePrefilled(element)
      expect(seen).toEqual([{ Name: 'Ada' }])
      expect(Object.prototype.hasOwnProperty.call(element, 'prefilledVariables')).toBe(false)
    } finally {
      delete (Object.getPrototypeOf(element) as { prefilledVariables?: unknown }).prefilledVariables
    }
  })

  it('gives the inner chat a storage key of its own: the launcher’s, else its id, else its tag', () => {
    const chat = document.createElement('flow-chat')
    const bubble = document.createElement('flow-chat-bubble')
    bubble.setAttribute('flow', 'f1')
    bubble.setAttribute('label', 'Sales')
    forwardAttributes(bubble, chat)
    expect(chat.getAttribute('storage-key')).toBe('flow-chat-bubble')
    expect(chat.getAttribute('label')).toBe('Sales')
    bubble.id = 'help'
    forwardAttributes(bubble, chat)
    expect(chat.getAttribute('storage-key')).toBe('help')
    bubble.setAttribute('storage-key', 'support')
    forwardAttributes(bubble, chat)
    expect(chat.getAttribute('storage-key')).toBe('support')
  })
})
