import { describe, expect, it } from 'vitest'

describe('src/widget/index.ts in Node', () => {
  it('imports without a DOM and registers nothing until asked', async () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined')
    expect(typeof (globalThis as { HTMLElement?: unknown }).HTMLElement).toBe('undefined')
    const library = await import('../../src/widget/index')
    expect(typeof library.defineFlowChat).toBe('function')
    expect(typeof library.createFlowChatElement).toBe('function')
  })
})

describe('the embed API in Node', () => {
  it('imports without a DOM and fails clearly, without touching window, when called there', async () => {
    const library = await import('../../src/widget/index')
    for (const name of ['initStandard', 'initBubble', 'initPopup', 'defineFlowChatLaunchers', 'autoEmbed'] as const) {
      expect(typeof library[name]).toBe('function')
    }
    expect(() => library.initBubble({ flow: 'f' })).toThrow(/needs a browser/)
    expect(library.autoEmbed(null)).toBeUndefined()
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined')
  })
})
