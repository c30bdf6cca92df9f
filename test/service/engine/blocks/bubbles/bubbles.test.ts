import { describe, expect, it } from 'vitest'
import type { Block } from '../../../../../src/protocol/index'
import { buildBubbleMessage } from '../../../../../src/service/engine/blocks/bubbles/bubbles'
import { deepFreeze } from '../../../../../src/service/engine/core/deep-freeze'
import type { Substitute } from '../../../../../src/service/engine/core/variables'

const values: Record<string, string> = {
  Name: 'Ada',
  Img: 'https://img.test/a.png',
  Evil: '<script>x</script>',
  Answer: '**Paris**, then:\n\n- [map](https://maps.test/paris)',
  Id: 'a b',
}
const substitute: Substitute = (text, encode) =>
  text.replace(/\{\{([^{}]+)\}\}/g, (_m, name: string) => {
    const value = values[name.trim()] ?? ''
    return encode ? encode(value) : value
  })

describe('text bubbles', () => {
  it('sends richText and a plainText computed from it, with variables filled in', () => {
    const message = buildBubbleMessage(
      { id: 'b1', type: 'text', content: { richText: [{ type: 'p', children: [{ text: 'Nice to meet you {{Name}}' }] }] } },
      substitute,
    )
    expect(message).toEqual({
      id: 'b1',
      type: 'text',
      content: { richText: [{ type: 'p', children: [{ text: 'Nice to meet you Ada' }] }], plainText: 'Nice to meet you Ada' },
    })
  })

  it("adds the text as Markdown when a Markdown variable's value holds Markdown: the flow's words escaped, the value as written", () => {
    const message = buildBubbleMessage(
      {
        id: 'b1',
        type: 'text',
        content: {
          richText: [
            { type: 'p', children: [{ text: 'Answer *1* ', bold: true }, { text: '{{Answer}}' }] },
            {
              type: 'ul',
              children: [
                {
                  type: 'li',
                  children: [{ type: 'lic', children: [{ type: 'a', url: 'https://x.test/{{Id}}', children: [{ text: 'More_info' }] }] }],
                },
              ],
            },
          ],
        },
      },
      substitute,
      (name) => name === 'Answer',
    )
    const content = message?.content as Record<string, unknown>
    expect(content.markdown).toBe(
      '**Answer \\*1\\*** **Paris**, then:\n\n- [map](https://maps.test/paris)\n\n- [More\\_info](<https://x.test/a%20b>)',
    )
    // Clients that do not read Markdown keep the rich text, with the value as plain text.
    expect(content.plainText).toContain('**Paris**')
  })

  it('sends no Markdown when no value reads differently as Markdown', () => {
    for (const text of ['Hello {{Name}}!', 'Hi {{Evil}}', 'No variables, *stars* and _lines_']) {
      const message = buildBubbleMessage(
        { id: 'b', type: 'text', content: { richText: [{ type: 'p', children: [{ text }] }] } },
        substitute,
      )
      expect((message?.content as Record<string, unknown> | undefined)?.markdown, text).toBeUndefined()
    }
  })

  it('keeps html and plainText when exported, filling both and escaping values in html', () => {
    const message = buildBubbleMessage(
      {
        id: 'b2',
        type: 'text',
        content: {
          richText: [{ type: 'p', children: [{ text: 'Hi {{Evil}}' }] }],
          html: '<p>Hi {{Evil}}</p>',
          plainText: 'Hi {{Evil}}',
        },
      },
      substitute,
    )
    expect(message?.content).toEqual({
      richText: [{ type: 'p', children: [{ text: 'Hi <script>x</script>' }] }],
      html: '<p>Hi &lt;script&gt;x&lt;/script&gt;</p>',
      plainText: 'Hi <script>x</script>',
    })
  })

  it('builds richText from plainText or html when an export has only those', () => {
    const fromPlain = buildBubbleMessage({ id: 'b3', type: 'text', content: { plainText: 'Line 1\nLine 2' } }, substitute)
    expect(fromPlain?.content).toEqual({
      richText: [
        { type: 'p', children: [{ text: 'Line 1' }] },
        { type: 'p', children: [{ text: 'Line 2' }] },
      ],
      plainText: 'Line 1\nLine 2',
    })
    const fromHtml = buildBubbleMessage({ id: 'b4', type: 'text', content: { html: '<p>Hello &amp; welcome</p>' } }, substitute)
    expect(fromHtml?.content).toMatchObject({ html: '<p>Hello &amp; welcome</p>', plainText: 'Hello & welcome' })
  })

  it('skips a text that is blank once variables are filled', () => {
    const block = { id: 'b5', type: 'text', content: { richText: [{ type: 'p', children: [{ text: '{{Unknown}} ' }] }] } }
    expect(buildBubbleMessage(block, substitute)).toBeNull()
  })
})

describe('media bubbles', () => {
  it('image: url and click link, filled in', () => {
    const message = buildBubbleMessage(
      { id: 'i', type: 'image', content: { url: '{{Img}}', clickLink: { url: 'https://x.test/{{Name}}', alt: 'Photo of {{Name}}' } } },
      substitute,
    )
    expect(message).toEqual({
      id: 'i',
      type: 'image',
      content: { url: 'https://img.test/a.png', clickLink: { url: 'https://x.test/Ada', alt: 'Photo of Ada' } },
    })
  })

  it('image: the alt text is kept when the image links nowhere', () => {
    const message = buildBubbleMessage(
      { id: 'i', type: 'image', content: { url: '{{Img}}', clickLink: { alt: 'Photo of {{Name}}' } } },
      substitute,
    )
    expect(message?.content).toEqual({ url: 'https://img.test/a.png', clickLink: { alt: 'Photo of Ada' } })
  })

  it('video: provider and id derived from the url, numeric height', () => {
    const message = buildBubbleMessage(
      { id: 'v', type: 'video', content: { url: 'https://youtu.be/dQw4w9WgXcQ', height: '400', aspectRatio: '16/9' } },
      substitute,
    )
    expect(message?.content).toEqual({
      url: 'https://youtu.be/dQw4w9WgXcQ',
      type: 'youtube',
      id: 'dQw4w9WgXcQ',
      height: 400,
      aspectRatio: '16/9',
    })
  })

  it('video: a stored provider and id win over parsing', () => {
    const message = buildBubbleMessage({ id: 'v2', type: 'video', content: { type: 'vimeo', id: '123' } }, substitute)
    expect(message?.content).toEqual({ type: 'vimeo', id: '123' })
  })

  it('audio and embed keep their shapes', () => {
    expect(
      buildBubbleMessage({ id: 'a', type: 'audio', content: { url: 'https://a.test/x.mp3', isAutoplayEnabled: true } }, substitute),
    ).toEqual({ id: 'a', type: 'audio', content: { url: 'https://a.test/x.mp3', isAutoplayEnabled: true } })
    expect(buildBubbleMessage({ id: 'e', type: 'embed', content: { url: 'https://e.test', height: 300 } }, substitute)).toEqual({
      id: 'e',
      type: 'embed',
      content: { url: 'https://e.test', height: 300 },
    })
  })

  it('skips media without an address', () => {
    expect(buildBubbleMessage({ id: 'i2', type: 'image', content: {} }, substitute)).toBeNull()
    expect(buildBubbleMessage({ id: 'a2', type: 'audio', content: { url: '{{Unknown}}' } }, substitute)).toBeNull()
  })
})

describe('bubbles of a published version (frozen blocks)', () => {
  const frozen = <T>(value: T): T => deepFreeze(structuredClone(value))
  const other: Substitute = (text, encode) => substitute(text.replaceAll('{{Name}}', 'Grace'), encode)
  const plainText = (block: Block, fill: Substitute) =>
    (buildBubbleMessage(block, fill)?.content as { plainText?: string } | undefined)?.plainText

  it('read the same in every conversation when they name no variable, built once and frozen', () => {
    const block = frozen({ id: 's', type: 'text', content: { richText: [{ type: 'p', children: [{ text: 'Welcome!' }] }] } })
    const first = buildBubbleMessage(block, substitute)
    expect(first?.content).toEqual({ richText: [{ type: 'p', children: [{ text: 'Welcome!' }] }], plainText: 'Welcome!' })
    expect(buildBubbleMessage(block, other)).toBe(first)
    expect(Object.isFrozen(first?.content)).toBe(true)
  })

  it("are filled anew for each conversation when they name one: one visitor's value never reaches another", () => {
    const block = frozen({ id: 'v', type: 'text', content: { richText: [{ type: 'p', children: [{ text: 'Hi {{Name}}' }] }] } })
    expect(plainText(block, substitute)).toBe('Hi Ada')
    expect(plainText(block, other)).toBe('Hi Grace')
    expect(plainText(block, substitute)).toBe('Hi Ada')
  })
})
