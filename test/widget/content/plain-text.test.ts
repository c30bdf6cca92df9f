import { describe, expect, it } from 'vitest'
import { htmlToPlain, messageText, richTextToPlain } from '../../../src/widget/content/plain-text'

describe('plain text', () => {
  it('flattens richText with blocks on their own lines', () => {
    const rich = [
      { type: 'p', children: [{ text: 'Hello ' }, { text: 'Ada', bold: true }] },
      { type: 'ul', children: [{ type: 'li', children: [{ type: 'lic', children: [{ text: 'one' }] }] }] },
    ]
    expect(richTextToPlain(rich)).toBe('Hello Ada\none')
  })

  it('reads text out of HTML without running or keeping any markup', () => {
    expect(htmlToPlain('<p>Hi &amp; <b>bye</b></p><script>alert(1)</script><img src=x onerror=alert(1)>&#33;')).toBe('Hi & bye\n!')
    expect(htmlToPlain('&constructor; &toString;')).toBe('&constructor; &toString;')
  })

  it('prefers richText, then plainText, then html for a text message', () => {
    expect(messageText({ id: '1', type: 'text', content: { richText: [{ type: 'p', children: [{ text: 'rich' }] }], plainText: 'plain' } })).toBe('rich')
    expect(messageText({ id: '1', type: 'text', content: { richText: [], plainText: 'plain', html: '<p>html</p>' } })).toBe('plain')
    expect(messageText({ id: '1', type: 'text', content: { html: '<p>html</p>' } })).toBe('html')
    expect(messageText({ id: '1', type: 'image', content: { url: 'x', clickLink: { alt: 'A cat' } } })).toBe('A cat')
    expect(messageText({ id: '1', type: 'text' })).toBe('')
  })
})
