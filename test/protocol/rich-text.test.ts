import { describe, expect, it } from 'vitest'
import { isRichElement, isRichLeaf, richTextToPlain } from '../../src/protocol/rich-text'

describe('richTextToPlain', () => {
  it('puts each paragraph on its own line and keeps inline marks in the line', () => {
    const tree = [
      { type: 'p', children: [{ text: 'Since you use it daily, can I ask you ' }, { text: '2 questions', bold: true }, { text: '?' }] },
      { type: 'p', children: [{ text: 'Thanks' }] },
    ]
    expect(richTextToPlain(tree)).toBe('Since you use it daily, can I ask you 2 questions?\nThanks')
  })

  it('lists items one per line and keeps link text', () => {
    const tree = [
      {
        type: 'ul',
        children: [
          { type: 'li', children: [{ type: 'lic', children: [{ text: 'One' }] }] },
          {
            type: 'li',
            children: [{ type: 'lic', children: [{ text: 'Two ' }, { type: 'a', url: 'https://x.test', children: [{ text: 'link' }] }] }],
          },
        ],
      },
    ]
    expect(richTextToPlain(tree)).toBe('One\nTwo link')
  })

  it('ignores malformed nodes instead of failing', () => {
    expect(richTextToPlain([null, 3, 'x', { type: 'p' }, { type: 'p', children: [{ text: 'ok' }] }])).toBe('\n\n\n\nok')
  })

  it('stops at absurd nesting depth instead of overflowing the stack', () => {
    let node: Record<string, unknown> = { text: 'deep' }
    for (let i = 0; i < 100_000; i++) node = { type: 'span', children: [node] }
    expect(richTextToPlain([node])).toBe('')
  })
})

describe('rich-text nodes', () => {
  it('tells leaves and elements apart by their fields, never trusting anything else', () => {
    expect(isRichLeaf({ text: 'hi', bold: true })).toBe(true)
    expect(isRichLeaf({ text: 3 })).toBe(false)
    expect(isRichElement({ type: 'p', children: [] })).toBe(true)
    expect(isRichElement({ type: 'p', children: 'x' })).toBe(false)
    expect(isRichElement([{ children: [] }])).toBe(false)
  })
})
