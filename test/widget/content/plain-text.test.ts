import { describe, expect, it } from 'vitest'
import { htmlText } from '../../../src/widget/content/html-text'
import { awaitsHtmlReader, htmlToPlain, messageText, richTextToPlain, withHtmlReader } from '../../../src/widget/content/plain-text'

const htmlOnly = { id: '1', type: 'text', content: { html: '<p>Fish &amp; <b>chips</b></p>' } }

describe('plain text', () => {
  it('flattens richText with blocks on their own lines', () => {
    const rich = [
      { type: 'p', children: [{ text: 'Hello ' }, { text: 'Ada', bold: true }] },
      { type: 'ul', children: [{ type: 'li', children: [{ type: 'lic', children: [{ text: 'one' }] }] }] },
    ]
    expect(richTextToPlain(rich)).toBe('Hello Ada\none')
  })

  it('reads text out of HTML without running or keeping any markup', () => {
    expect(htmlText('<p>Hi &amp; <b>bye</b></p><script>alert(1)</script><img src=x onerror=alert(1)>&#33;')).toBe('Hi & bye\n!')
    expect(htmlText('&constructor; &toString;')).toBe('&constructor; &toString;')
  })

  it('prefers richText, then plainText, then html for a text message', () => {
    expect(
      messageText({ id: '1', type: 'text', content: { richText: [{ type: 'p', children: [{ text: 'rich' }] }], plainText: 'plain' } }),
    ).toBe('rich')
    expect(messageText({ id: '1', type: 'text', content: { richText: [], plainText: 'plain', html: '<p>html</p>' } })).toBe('plain')
    expect(messageText({ id: '1', type: 'text', content: { html: '<p>html</p>' } })).toBe('html')
    expect(messageText({ id: '1', type: 'image', content: { url: 'x', clickLink: { alt: 'A cat' } } })).toBe('A cat')
    expect(messageText({ id: '1', type: 'text' })).toBe('')
  })

  // One module instance for the whole file: these steps run in order.
  it('drops the tags of html until the html chunk is here, and waits for it only for html-only messages', () => {
    expect(htmlToPlain('<p>Fish &amp; chips</p>')).toBe('Fish &amp; chips')
    expect(awaitsHtmlReader(htmlOnly)).toBe(true)
    expect(awaitsHtmlReader({ id: '2', type: 'text', content: { html: '<p>html</p>', plainText: 'plain' } })).toBe(false)
    expect(awaitsHtmlReader({ id: '3', type: 'text', content: { html: '  ' } })).toBe(false)
    expect(awaitsHtmlReader({ id: '4', type: 'image', content: { url: 'x' } })).toBe(false)
  })

  it('stops waiting with the tags dropped when the html chunk cannot load, and reads html exactly once it does', async () => {
    await expect(withHtmlReader(Promise.reject(new Error('offline')))).rejects.toThrow('offline')
    expect(awaitsHtmlReader(htmlOnly)).toBe(false)
    expect(messageText(htmlOnly)).toBe('Fish &amp; chips')
    await withHtmlReader(Promise.resolve({ htmlText }))
    expect(messageText(htmlOnly)).toBe('Fish & chips')
  })
})
