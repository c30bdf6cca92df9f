import { describe, expect, it } from 'vitest'
import { fontFamilyValue, fontRequest } from '../../../../src/widget/ui/theme/font'

describe('fontRequest', () => {
  it('treats a plain name as a Google font, asking for bold weights first', () => {
    const request = fontRequest('Open Sans')
    expect(request?.alias).toBe('flowchat Open Sans')
    expect(request?.urls).toEqual([
      'https://fonts.googleapis.com/css2?family=Open+Sans:wght@400;600;700&display=swap',
      'https://fonts.googleapis.com/css2?family=Open+Sans&display=swap',
    ])
  })

  it('downloads nothing for a generic family: the visitor has it', () => {
    for (const generic of ['sans-serif', 'serif', 'monospace', 'system-ui', 'ui-rounded', 'Sans-Serif']) {
      expect(fontRequest(generic), generic).toBeUndefined()
      expect(fontRequest({ type: 'Google', family: generic }), generic).toBeUndefined()
      expect(fontFamilyValue(generic)).toBe(generic.toLowerCase())
    }
  })

  it('downloads nothing when the owner turns web fonts off, custom fonts included', () => {
    expect(fontRequest('Open Sans', 'none')).toBeUndefined()
    expect(fontRequest({ type: 'Custom', family: 'Brand', url: 'https://cdn.example/brand.woff2' }, 'none')).toBeUndefined()
    // The family is still asked for by name: a copy installed on the visitor's device is used.
    expect(fontFamilyValue('Open Sans')).toMatch(/^"flowchat Open Sans", "Open Sans", system-ui/)
  })

  it("asks the owner's own font host instead of Google's when given one", () => {
    expect(fontRequest('Open Sans', 'https://fonts.shop.example/css2')?.urls[0]).toBe(
      'https://fonts.shop.example/css2?family=Open+Sans:wght@400;600;700&display=swap',
    )
    expect(fontRequest('Lato', 'https://fonts.shop.example/api?v=2')?.urls[1]).toBe(
      'https://fonts.shop.example/api?v=2&family=Lato&display=swap',
    )
    // Not a web address: no request rather than one to a place nobody chose.
    expect(fontRequest('Lato', 'javascript:alert(1)')).toBeUndefined()
  })

  it('loads a custom font from its own http(s) URL only, a relative one from the flow service', () => {
    expect(fontRequest({ type: 'Custom', family: 'Brand', url: 'https://cdn.example/brand.woff2' })).toMatchObject({
      kind: 'file',
      urls: ['https://cdn.example/brand.woff2'],
    })
    expect(fontRequest({ type: 'Custom', family: 'Brand', url: 'https://cdn.example/brand.css' })?.kind).toBe('stylesheet')
    expect(fontRequest({ type: 'Custom', family: 'Brand', url: 'javascript:alert(1)' })).toBeUndefined()
    expect(fontRequest({ type: 'Custom', family: 'Brand', url: '/fonts/brand.woff2' }, '', 'https://chat.example')?.urls).toEqual([
      'https://chat.example/fonts/brand.woff2',
    ])
  })

  it('keeps only safe characters of the family name and falls back to the system stack', () => {
    const request = fontRequest('Evil"; } body { x')
    expect(request?.family).toBe('Evil body x')
    expect(fontFamilyValue('Evil"; } body { x')).toMatch(/^"flowchat Evil body x", "Evil body x", system-ui/)
    expect(fontRequest('  ')).toBeUndefined()
    expect(fontFamilyValue('  ')).toBeUndefined()
  })
})
