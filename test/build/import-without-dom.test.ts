import { describe, expect, it } from 'vitest'

describe('src/index.ts in Node', () => {
  it('imports without a DOM and registers nothing until asked', async () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined')
    expect(typeof (globalThis as { HTMLElement?: unknown }).HTMLElement).toBe('undefined')
    const library = await import('../../src/index')
    expect(typeof library.defineFlowChat).toBe('function')
    expect(typeof library.createFlowChatElement).toBe('function')
  })
})
