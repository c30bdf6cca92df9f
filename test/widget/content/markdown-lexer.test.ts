import { describe, expect, it } from 'vitest'
import { createMarkdownRenderer } from '../../../src/widget/content/markdown'
import { createBlockSplitter } from '../../../src/widget/content/markdown-blocks'
import { MAX_BLOCK_NESTING, MAX_INLINE_NESTING, MAX_INLINE_RUN } from '../../../src/widget/content/markdown-lexer'
import { markdownHtml as html } from './markdown-as-is'
import { MARKDOWN_PATHOLOGIES } from './markdown-pathology-corpus'

// The parser's work alone: the HTML it writes is counted, not parsed (markdown-as-is.ts parses it).
let written = 0
const parseOnly = createMarkdownRenderer((html) => {
  written += html.length
  return document.createDocumentFragment()
})

/** A finished answer as the widget reads it: block by block (markdown-blocks.ts). */
function parseAnswer(markdown: string): void {
  const splitter = createBlockSplitter()
  for (const block of splitter.push(markdown)) parseOnly(block)
  parseOnly(splitter.open)
}

/** Milliseconds to parse `markdown` `times` times. */
function timed(markdown: string, times: number): number {
  const start = performance.now()
  for (let index = 0; index < times; index++) parseAnswer(markdown)
  return performance.now() - start
}

/**
 * The time for an input four times as long, as a multiple of the time for the shorter one, both
 * measured here and now: the best of rounds taken in turn (a round that a collection or another
 * process slowed down is not the best), the shorter input repeated to take 10 ms or more. About 4
 * when the work grows linearly; about 16 when it grows with the square of the length.
 */
function growth(small: string, large: string): { ratio: number; smallMs: number; largeMs: number } {
  let times = 1
  while (timed(small, times) < 10 && times < 1_000) times *= 2
  timed(large, times)
  let smallMs = Infinity
  let largeMs = Infinity
  for (let round = 0; round < 7; round++) {
    smallMs = Math.min(smallMs, timed(small, times) / times)
    largeMs = Math.min(largeMs, timed(large, times) / times)
  }
  return { ratio: largeMs / smallMs, smallMs, largeMs }
}

describe('Markdown from an untrusted answer', () => {
  for (const { pathology, make } of MARKDOWN_PATHOLOGIES) {
    it(`parses ${pathology} of 20 and 80 KB in time linear in its length, without overflowing the stack`, () => {
      const { ratio, smallMs, largeMs } = growth(make(20_000), make(80_000))
      console.log(`markdown ${pathology}: ${smallMs.toFixed(2)} ms for 20 KB, ${largeMs.toFixed(2)} ms for 80 KB (×${ratio.toFixed(1)})`)
      expect(written).toBeGreaterThan(0)
      expect(ratio).toBeLessThan(10)
    })
  }

  it(`nests block quotes and lists at most ${MAX_BLOCK_NESTING} deep and shows what is deeper as text`, () => {
    const quotes = html(`${'>'.repeat(5_000)} deep`)
    expect(quotes.querySelectorAll('blockquote').length).toBeLessThanOrEqual(MAX_BLOCK_NESTING)
    expect(quotes.textContent).toContain('>>> deep')
    const lists = html(`${'- '.repeat(5_000)}deep`)
    expect(lists.querySelectorAll('ul').length).toBeLessThanOrEqual(MAX_BLOCK_NESTING)
    expect(lists.textContent).toContain('- - deep')
    // What answers write nests as it always did.
    expect(html('> quoted\n> > twice').querySelectorAll('blockquote')).toHaveLength(2)
    expect(html('- one\n  - two\n    - three').querySelectorAll('ul ul ul li')).toHaveLength(1)
  })

  it(`nests emphasis and strikethrough at most ${MAX_INLINE_NESTING} deep and shows what is deeper as text`, () => {
    const deep = html(`${'*a _b ~~c '.repeat(150)}deep${' c~~ b_ a*'.repeat(150)}`)
    const depth = Math.max(
      ...[...deep.querySelectorAll('em, strong, del')].map((span) => {
        let levels = 0
        for (let node: Element | null = span; node; node = node.parentElement) if (/^(EM|STRONG|DEL)$/.test(node.tagName)) levels++
        return levels
      }),
    )
    expect(depth).toBeGreaterThan(MAX_INLINE_NESTING / 2)
    expect(depth).toBeLessThanOrEqual(MAX_INLINE_NESTING)
    expect(deep.textContent).toContain('deep')
    const stars = html(`${'*'.repeat(5_000)}deep${'*'.repeat(5_000)}`)
    expect(stars.textContent).toContain('***deep***')
    expect(html('***both*** and ~~gone~~').querySelector('em strong, strong em')?.textContent).toBe('both')
  })

  it('reads a paragraph longer than a run to its end: every word, its line breaks, and links and emphasis between the cuts', () => {
    const words = Array.from({ length: 1_500 }, (_, index) => `word${index}`)
    const long = html(`${words.join(' ')} see [docs](https://example.com/docs) and **this**`)
    expect(long.textContent!.length).toBeGreaterThan(3 * MAX_INLINE_RUN)
    expect(long.querySelectorAll('p')).toHaveLength(1)
    for (const word of words) expect(long.textContent).toContain(`${word} `)
    expect(long.querySelector('a')?.getAttribute('href')).toBe('https://example.com/docs')
    expect(long.querySelector('strong')?.textContent).toBe('this')
    const lines = Array.from({ length: 600 }, (_, index) => `line ${index}`)
    expect(html(lines.join('\n')).querySelectorAll('br')).toHaveLength(lines.length - 1)
  })
})
