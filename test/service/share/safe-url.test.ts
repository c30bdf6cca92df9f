import { describe, expect, it } from 'vitest'
import { iconUrl, webUrl } from '../../../src/service/share/safe-url'
import { tagManagerId, tagManagerScriptUrl } from '../../../src/service/share/tag-manager'

describe('webUrl', () => {
  it('keeps absolute http(s) URLs, normalised', () => {
    expect(webUrl('https://CDN.example/a b.png')).toBe('https://cdn.example/a%20b.png')
    expect(webUrl('http://cdn.example/a.png')).toBe('http://cdn.example/a.png')
  })

  it('drops other schemes, relative URLs, credentials and oversized values', () => {
    for (const value of [
      'javascript:alert(1)',
      'ftp://cdn.example/a.png',
      '/a.png',
      'a.png',
      '//cdn.example/a.png',
      'https://u:p@cdn.example/a.png',
      `https://cdn.example/${'a'.repeat(5000)}`,
      undefined,
    ]) {
      expect(webUrl(value)).toBeUndefined()
    }
  })
})

describe('iconUrl', () => {
  it('accepts inline image favicons of the usual types', () => {
    for (const value of [
      'data:image/png;base64,iVBORw0KGgo=',
      'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>',
      'data:image/x-icon;base64,AAAB',
      'DATA:IMAGE/GIF;base64,R0lG',
    ]) {
      expect(iconUrl(value)).toBe(value)
    }
  })

  it('refuses data URLs that are not images, carry control characters or are too big', () => {
    for (const value of [
      'data:text/html,<script>alert(1)</script>',
      'data:image/svg+xml,<svg>\n</svg>',
      'data:,x',
      `data:image/png;base64,${'A'.repeat(40_000)}`,
    ]) {
      expect(iconUrl(value)).toBeUndefined()
    }
  })
})

describe('tagManagerId', () => {
  it('accepts container ids in any case and returns them upper-case', () => {
    expect(tagManagerId('GTM-AB12CD')).toBe('GTM-AB12CD')
    expect(tagManagerId('gtm-ab12cd')).toBe('GTM-AB12CD')
    expect(tagManagerScriptUrl('GTM-AB12CD')).toBe('https://www.googletagmanager.com/gtm.js?id=GTM-AB12CD')
  })

  it('refuses anything else', () => {
    for (const value of ['GTM-', 'GTM-AB1', 'GTM-AB12CD&l=x', 'G-ABC123', 'GTM-AB 12', 'GTM-ABCDEFGHIJKLM', undefined]) {
      expect(tagManagerId(value)).toBeUndefined()
    }
  })
})
