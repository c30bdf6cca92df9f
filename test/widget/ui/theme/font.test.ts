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

  it('loads a custom font from its own https URL only', () => {
    expect(fontRequest({ type: 'Custom', family: 'Brand', url: 'https://cdn.example/brand.woff2' })).toMatchObject({ kind: 'file', urls: ['https://cdn.example/brand.woff2'] })
    expect(fontRequest({ type: 'Custom', family: 'Brand', url: 'https://cdn.example/brand.css' })?.kind).toBe('stylesheet')
    expect(fontRequest({ type: 'Custom', family: 'Brand', url: 'javascript:alert(1)' })).toBeUndefined()
  })

  it('keeps only safe characters of the family name and falls back to the system stack', () => {
    const request = fontRequest('Evil"; } body { x')
    expect(request?.family).toBe('Evil body x')
    expect(fontFamilyValue(request)).toMatch(/^"flowchat Evil body x", "Evil body x", system-ui/)
    expect(fontRequest('  ')).toBeUndefined()
  })
})
