import { describe, expect, it } from 'vitest'
import { createBlockSplitter } from '../../../src/widget/content/markdown-blocks'

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
})
