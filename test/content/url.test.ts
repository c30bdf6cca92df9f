import { describe, expect, it } from 'vitest'
import { LINK_SCHEMES, WEB_SCHEMES, safeUrl } from '../../src/content/url'

describe('safeUrl', () => {
  it('keeps http, https, mailto and tel links, normalised', () => {
    expect(safeUrl('https://example.com/a b')).toBe('https://example.com/a%20b')
    expect(safeUrl('mailto:ada@example.com')).toBe('mailto:ada@example.com')
    expect(safeUrl('tel:+441234')).toBe('tel:+441234')
    expect(safeUrl('HTTP://EXAMPLE.com')).toBe('http://example.com/')
  })

  it('drops script, data and other schemes however they are spelled', () => {
    for (const url of ['javascript:alert(1)', ' JaVaScRiPt:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<script>x</script>', 'vbscript:x', 'file:///etc/passwd']) {
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
