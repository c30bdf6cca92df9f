import { Tokenizer } from 'marked'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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

/**
 * Characters marked's tokenizer rules are handed, summed over every call: a rule reads at most
 * the text it is handed (marked's rules are anchored at its start), so the sum bounds the lexer's
 * work in characters scanned. Unbounded, each of the n markers of an `_a` run handed the rest of
 * the run to the e-mail rule: a sum growing with n².
 */
let handed = 0
const tokenizer = Tokenizer.prototype as unknown as Record<string, (src: unknown, ...rest: unknown[]) => unknown>
const RULES = Object.getOwnPropertyNames(Tokenizer.prototype).filter((name) => name !== 'constructor')
const originals = new Map(RULES.map((rule) => [rule, tokenizer[rule]!]))
beforeAll(() => {
  for (const [rule, original] of originals) {
    tokenizer[rule] = function (this: unknown, src: unknown, ...rest: unknown[]) {
      if (typeof src === 'string') handed += src.length
      return original.call(this, src, ...rest)
    }
  }
})
afterAll(() => {
  for (const [rule, original] of originals) tokenizer[rule] = original
})

/** Characters scanned to parse `markdown`. */
function scanned(markdown: string): number {
  handed = 0
  parseAnswer(markdown)
  return handed
}

describe('Markdown from an untrusted answer', () => {
  for (const { pathology, make } of MARKDOWN_PATHOLOGIES) {
    it(`parses ${pathology} of 20 and 80 KB scanning characters in linear proportion to its length, without overflowing the stack`, () => {
      const small = make(20_000)
      const large = make(80_000)
      const [smallScan, largeScan] = [scanned(small), scanned(large)]
      const growth = largeScan / smallScan
      console.log(`markdown ${pathology}: ${smallScan} characters scanned for 20 KB, ${largeScan} for 80 KB (×${growth.toFixed(1)})`)
      expect(written).toBeGreaterThan(0)
      expect(smallScan).toBeGreaterThanOrEqual(small.length)
      // About 4 for an input 4 times as long when the work grows linearly (more where the shorter
      // one ends in a part of a block); 16 when it grows with the square of the length.
      expect(growth).toBeLessThan(10)
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
