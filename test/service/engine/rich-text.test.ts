import { describe, expect, it } from 'vitest'
import { mapRichText, richTextToPlainText } from '../../../src/service/engine/rich-text'

describe('richTextToPlainText', () => {
  it('puts each paragraph on its own line and keeps inline marks in the line', () => {
    const tree = [
      { type: 'p', children: [{ text: 'Since you use it daily, can I ask you ' }, { text: '2 questions', bold: true }, { text: '?' }] },
      { type: 'p', children: [{ text: 'Thanks' }] },
    ]
    expect(richTextToPlainText(tree)).toBe('Since you use it daily, can I ask you 2 questions?\nThanks')
  })

  it('lists items one per line and keeps link text', () => {
    const tree = [
      { type: 'ul', children: [
        { type: 'li', children: [{ type: 'lic', children: [{ text: 'One' }] }] },
        { type: 'li', children: [{ type: 'lic', children: [{ text: 'Two ' }, { type: 'a', url: 'https://x.test', children: [{ text: 'link' }] }] }] },
      ] },
    ]
    expect(richTextToPlainText(tree)).toBe('One\nTwo link')
  })

  it('ignores malformed nodes instead of failing', () => {
    expect(richTextToPlainText([null, 3, 'x', { type: 'p' }, { type: 'p', children: [{ text: 'ok' }] }])).toBe('\n\n\n\nok')
  })

  it('stops at absurd nesting depth instead of overflowing the stack', () => {
    let node: Record<string, unknown> = { text: 'deep' }
    for (let i = 0; i < 100_000; i++) node = { type: 'span', children: [node] }
    expect(richTextToPlainText([node])).toBe('')
  })
})

describe('mapRichText', () => {
  it('transforms leaf texts and link urls, and leaves the original tree untouched', () => {
    const tree = [{ type: 'p', children: [{ text: 'Hi {{Name}}', bold: true }, { type: 'a', url: 'https://x.test/{{Name}}', children: [{ text: 'go' }] }] }]
    const mapped = mapRichText(tree, (text) => text.replace('{{Name}}', 'Ada'))
    expect(mapped).toEqual([{ type: 'p', children: [{ text: 'Hi Ada', bold: true }, { type: 'a', url: 'https://x.test/Ada', children: [{ text: 'go' }] }] }])
    expect(tree[0]?.children[0]).toEqual({ text: 'Hi {{Name}}', bold: true })
  })
})
