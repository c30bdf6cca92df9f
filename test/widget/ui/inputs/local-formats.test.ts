import { describe, expect, it } from 'vitest'
import { localDates, localNumber } from '../../../../src/widget/ui/inputs/local-formats'

describe('values in the chat’s language', () => {
  it('writes numbers the language’s way', () => {
    expect(localNumber(3.5, 'fr')).toBe(new Intl.NumberFormat('fr').format(3.5))
    expect(localNumber(3.5, 'fr')).toMatch(/^3,5$/)
    expect(localNumber(1234.25, 'de')).toBe('1.234,25')
    expect(localNumber(1234.25, 'en')).toBe('1,234.25')
  })

  it('writes a date, a date and time, and a range the language’s way, in the visitor’s time zone', () => {
    expect(localDates(['2026-03-01'], 'fr', false)).toBe('1 mars 2026')
    expect(localDates(['2026-03-01'], 'en', false)).toBe('March 1, 2026')
    expect(localDates(['2026-03-01T14:30'], 'de', true)).toBe(
      new Intl.DateTimeFormat('de', { dateStyle: 'long', timeStyle: 'short' }).format(new Date(2026, 2, 1, 14, 30)),
    )
    expect(localDates(['2026-03-01', '2026-03-05'], 'fr', false)).toBe(
      new Intl.DateTimeFormat('fr', { dateStyle: 'long' }).formatRange(new Date(2026, 2, 1), new Date(2026, 2, 5)),
    )
    expect(localDates(['soon'], 'fr', false)).toBeUndefined()
  })
})
