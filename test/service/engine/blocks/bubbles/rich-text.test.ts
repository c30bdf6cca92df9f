import { describe, expect, it } from 'vitest'
import { MAX_RICH_TEXT_DEPTH } from '../../../../../src/protocol/rich-text'
import { mapRichText } from '../../../../../src/service/engine/blocks/bubbles/rich-text'

describe('mapRichText', () => {
  it('transforms leaf texts and link urls, and leaves the original tree untouched', () => {
    const tree = [
      {
        type: 'p',
        children: [
          { text: 'Hi {{Name}}', bold: true },
          { type: 'a', url: 'https://x.test/{{Name}}', children: [{ text: 'go' }] },
        ],
      },
    ]
    const mapped = mapRichText(tree, (text) => text.replace('{{Name}}', 'Ada'))
    expect(mapped).toEqual([
      {
        type: 'p',
        children: [
          { text: 'Hi Ada', bold: true },
          { type: 'a', url: 'https://x.test/Ada', children: [{ text: 'go' }] },
        ],
      },
    ])
    expect(tree[0]?.children[0]).toEqual({ text: 'Hi {{Name}}', bold: true })
  })

  it('stops at the depth the contract reads, like the widget', () => {
    let node: Record<string, unknown> = { text: 'deep' }
    for (let i = 0; i < MAX_RICH_TEXT_DEPTH + 5; i++) node = { type: 'span', children: [node] }
    expect(JSON.stringify(mapRichText([node], (text) => text))).not.toContain('deep')
  })
})
