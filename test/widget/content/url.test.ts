import { describe, expect, it } from 'vitest'
import { LINK_SCHEMES, safeImageUrl, safeUrl, WEB_SCHEMES } from '../../../src/widget/content/url'
import { BAD_URLS } from './bad-url-corpus'

describe('safeUrl', () => {
  it('keeps http, https, mailto, tel and sms links, normalised', () => {
    expect(safeUrl('https://example.com/a b')).toBe('https://example.com/a%20b')
    expect(safeUrl('mailto:ada@example.com')).toBe('mailto:ada@example.com')
    expect(safeUrl('tel:+441234')).toBe('tel:+441234')
    expect(safeUrl('SMS:+441234')).toBe('sms:+441234')
    expect(safeUrl('HTTP://EXAMPLE.com')).toBe('http://example.com/')
  })

  it('drops script, data and other schemes however they are spelled', () => {
    for (const url of [
      'javascript:alert(1)',
      ' JaVaScRiPt:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>x</script>',
      'vbscript:x',
      'file:///etc/passwd',
    ]) {
      expect(safeUrl(url), url).toBeNull()
    }
  })

  it('resolves relative URLs against the page and rejects non-strings', () => {
    expect(safeUrl('/help', LINK_SCHEMES, 'https://site.example/page')).toBe('https://site.example/help')
    expect(safeUrl(42)).toBeNull()
    expect(safeUrl('')).toBeNull()
  })

  it('limits media to the web schemes', () => {
    expect(safeUrl('mailto:a@b.c', WEB_SCHEMES)).toBeNull()
    expect(safeUrl('https://cdn.example/x.png', WEB_SCHEMES)).toBe('https://cdn.example/x.png')
  })
})

const PAGE = 'https://site.example/shop/page'

describe('the bad-URL corpus', () => {
  const allowLists = {
    link: (url: string) => safeUrl(url, LINK_SCHEMES, PAGE),
    media: (url: string) => safeUrl(url, WEB_SCHEMES, PAGE),
    image: (url: string) => safeImageUrl(url, PAGE),
  }
  for (const { attack, url, outcome } of BAD_URLS) {
    for (const [position, allow] of Object.entries(allowLists)) {
      it(`${attack}: ${outcome} as a ${position} URL`, () => {
        const result = allow(url)
        if (outcome === 'dropped') {
          expect(result).toBeNull()
        } else {
          // What is left is an ordinary address on the page's own site, never another scheme.
          expect(result).not.toBeNull()
          expect(new URL(result!).origin).toBe('https://site.example')
        }
      })
    }
  }
})

describe('safeImageUrl', () => {
  it('allows inline raster images, in any case', () => {
    const gif = 'data:image/gif;base64,R0lGODlhAQABAAAAACw='
    expect(safeImageUrl(gif, PAGE)).toBe(gif)
    expect(safeImageUrl('DATA:IMAGE/PNG;base64,iVBORw0KGgo=', PAGE)).toBe('DATA:IMAGE/PNG;base64,iVBORw0KGgo=')
  })

  it('keeps web images and resolves relative ones', () => {
    expect(safeImageUrl('/img/a.png', PAGE)).toBe('https://site.example/img/a.png')
    expect(safeImageUrl('https://cdn.example/x.webp', PAGE)).toBe('https://cdn.example/x.webp')
  })

  it('refuses inline SVG, HTML, oversized inline images and non-strings', () => {
    expect(safeImageUrl('data:image/svg+xml;base64,PHN2Zy8+', PAGE)).toBeNull()
    expect(safeImageUrl('data:text/html,<b>x</b>', PAGE)).toBeNull()
    expect(safeImageUrl(`data:image/png;base64,${'A'.repeat(300_000)}`, PAGE)).toBeNull()
    expect(safeImageUrl({ url: 'https://x.example' }, PAGE)).toBeNull()
  })

  it('never lets a link carry an inline image', () => {
    expect(safeUrl('data:image/png;base64,iVBORw0KGgo=', LINK_SCHEMES, PAGE)).toBeNull()
  })
})
