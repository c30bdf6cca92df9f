import { describe, expect, it } from 'vitest'
import { createBlockSplitter, MAX_BLOCK } from '../../../src/widget/content/markdown-blocks'
import { markdownHtml } from './markdown-as-is'
import { MARKDOWN_PATHOLOGIES } from './markdown-pathology-corpus'

/** Feeds `text` in pieces of `size` characters; the blocks completed along the way and the open one. */
function split(text: string, size: number) {
  const splitter = createBlockSplitter()
  const blocks: string[] = []
  for (let at = 0; at < text.length; at += size) blocks.push(...splitter.push(text.slice(at, at + size)))
  return { blocks, open: splitter.open }
}

const ANSWER = [
  '# Title\n',
  '\n',
  'A paragraph\nwith two lines.\n',
  '\n\n',
  '- one\n- two\n\n  still item two\n',
  '\n',
  '```js\nconst a = 1\n\n\nconst b = 2\n```\n',
  '\n',
  '~~~~\n```\n\nnot closed by backticks\n~~~~\n',
  '\n',
  'Last words',
].join('')

describe('createBlockSplitter', () => {
  it('completes a block at a blank line followed by text at the margin, never inside fenced code or an indented continuation', () => {
    const whole = split(ANSWER, ANSWER.length)
    expect(whole.blocks).toEqual([
      '# Title\n',
      'A paragraph\nwith two lines.\n',
      '- one\n- two\n\n  still item two\n',
      '```js\nconst a = 1\n\n\nconst b = 2\n```\n',
      '~~~~\n```\n\nnot closed by backticks\n~~~~\n',
    ])
    expect(whole.open).toBe('Last words')
  })

  it('gives the same blocks whatever the pieces', () => {
    const whole = split(ANSWER, ANSWER.length)
    for (const size of [1, 2, 3, 7, 11]) expect(split(ANSWER, size), `pieces of ${size}`).toEqual(whole)
  })

  it('keeps a block open until the next block has begun', () => {
    const splitter = createBlockSplitter()
    expect(splitter.push('First.\n\n')).toEqual([])
    expect(splitter.open).toBe('First.\n\n')
    expect(splitter.push('S')).toEqual(['First.\n'])
    expect(splitter.open).toBe('S')
  })

  it(`never completes or keeps open a block longer than ${MAX_BLOCK} characters, loses no text, whatever the pieces`, () => {
    const prose = Array.from({ length: 4_000 }, (_, index) => `word${index}${index % 15 === 14 ? '\n' : ' '}`).join('')
    const inputs = [prose, ...MARKDOWN_PATHOLOGIES.filter(({ pathology }) => !pathology.includes('fenced')).map(({ make }) => make(30_000))]
    const visible = (text: string) => text.replace(/\s+/g, '')
    for (const input of inputs) {
      const whole = split(input, input.length)
      expect(whole.blocks.length, input.slice(0, 20)).toBeGreaterThan(2)
      for (const block of [...whole.blocks, whole.open]) expect(block.length).toBeLessThanOrEqual(MAX_BLOCK)
      expect(visible(whole.blocks.join('') + whole.open)).toBe(visible(input))
      for (const size of [1_000, 7]) expect(split(input, size), `pieces of ${size}`).toEqual(whole)
    }
  })

  it('cuts long fenced code into blocks that each open the fence again, so all of it shows as code', () => {
    const lines = Array.from({ length: 3_000 }, (_, index) => `  line ${index}: a *b* _c_ [d](e)`)
    const markdown = `Intro\n\n\`\`\`js\n${lines.join('\n')}\n\`\`\`\n\nAfter`
    const { blocks, open } = split(markdown, 500)
    const code = blocks.slice(1)
    expect(code.length).toBeGreaterThan(5)
    expect(open).toBe('After')
    const shown = code.map((block) => {
      expect(block.length).toBeLessThanOrEqual(MAX_BLOCK)
      const host = markdownHtml(block)
      expect(host.querySelector('em, a'), 'nothing of the code is read as Markdown').toBeNull()
      return host.querySelector('pre code')!.textContent
    })
    expect(shown.join('')).toBe(`${lines.join('\n')}\n`)
  })
})
