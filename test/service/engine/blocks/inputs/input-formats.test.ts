import { describe, expect, it } from 'vitest'
import {
  parseDate,
  parseEmail,
  parseNumber,
  parsePhone,
  parseRating,
  parseUrl,
} from '../../../../../src/service/engine/blocks/inputs/input-formats'

describe('parseNumber', () => {
  it('accepts decimal notation and normalises it', () => {
    expect(parseNumber('42')).toBe('42')
    expect(parseNumber(' -3.50 ')).toBe('-3.5')
    expect(parseNumber('007')).toBe('7')
    expect(parseNumber('1e3')).toBe('1000')
  })
  it('refuses text, hex, blanks and infinities', () => {
    for (const bad of ['abc', '0x1f', '', ' ', '1,5', 'Infinity', '1e999', '12abc']) expect(parseNumber(bad)).toBeUndefined()
  })
  it('applies min and max inclusively', () => {
    expect(parseNumber('5', 5, 10)).toBe('5')
    expect(parseNumber('10', 5, 10)).toBe('10')
    expect(parseNumber('4', 5, 10)).toBeUndefined()
    expect(parseNumber('11', 5, 10)).toBeUndefined()
  })
})

describe('parseEmail', () => {
  it('accepts usual addresses, trimmed', () => {
    expect(parseEmail(' ada@example.com ')).toBe('ada@example.com')
    expect(parseEmail('first.last+tag@mail.example.co.uk')).toBe('first.last+tag@mail.example.co.uk')
  })
  it('refuses what cannot receive mail', () => {
    for (const bad of ['ada', 'ada@', '@example.com', 'ada@example', 'ada @example.com', 'ada@@example.com', 'ada@.com', 'ada@example.c'])
      expect(parseEmail(bad)).toBeUndefined()
  })
})

describe('parseUrl', () => {
  it('accepts http(s) and reads a bare domain as https', () => {
    expect(parseUrl('https://example.com/path?q=1')).toBe('https://example.com/path?q=1')
    expect(parseUrl('http://localhost:3000')).toBe('http://localhost:3000')
    expect(parseUrl('example.com')).toBe('https://example.com')
    expect(parseUrl('www.example.com/page')).toBe('https://www.example.com/page')
  })
  it('refuses other schemes, words and spaces', () => {
    for (const bad of ['javascript:alert(1)', 'ftp://example.com', 'hello', 'https://', 'exa mple.com', 'https://nodot', 'mailto:a@b.co'])
      expect(parseUrl(bad)).toBeUndefined()
  })
})

describe('parsePhone', () => {
  it('keeps digits and a leading +, turning 00 into +', () => {
    expect(parsePhone('+33 6 12 34 56 78')).toBe('+33612345678')
    expect(parsePhone('(555) 123-4567')).toBe('5551234567')
    expect(parsePhone('0033 6 12 34 56 78')).toBe('+33612345678')
    expect(parsePhone('06.12.34.56.78')).toBe('0612345678')
  })
  it('refuses letters, misplaced + and implausible lengths', () => {
    for (const bad of ['call me', '12345', '+1 (555) 123-4567 ext 2', '1+2345678', '1234567890123456'])
      expect(parsePhone(bad)).toBeUndefined()
  })
})

describe('parseDate', () => {
  it('accepts ISO dates and date-times', () => {
    expect(parseDate('2026-02-28', false)).toBe('2026-02-28')
    expect(parseDate('2024-02-29T10:30', false)).toBe('2024-02-29T10:30')
    expect(parseDate('2026-01-01T10:30:00.000Z', false)).toBe('2026-01-01T10:30:00.000Z')
  })
  it('refuses impossible dates and other formats', () => {
    for (const bad of ['2026-02-29', '2026-13-01', '2026-00-10', '01/02/2026', 'tomorrow', '2026-01-01T25:00'])
      expect(parseDate(bad, false)).toBeUndefined()
  })
  it('reads a range as "A to B" with A not after B', () => {
    expect(parseDate('2026-01-01 to 2026-01-05', true)).toBe('2026-01-01 to 2026-01-05')
    expect(parseDate('2026-01-05 to 2026-01-01', true)).toBeUndefined()
    expect(parseDate('2026-01-05', true)).toBeUndefined()
    expect(parseDate('2026-01-01 to 2026-01-05', false)).toBeUndefined()
  })
})

describe('parseRating', () => {
  it('accepts whole numbers from startsAt to length', () => {
    expect(parseRating('0', 0, 10)).toBe('0')
    expect(parseRating('10', 0, 10)).toBe('10')
    expect(parseRating('5', 1, 5)).toBe('5')
  })
  it('refuses out-of-range and fractional ratings', () => {
    for (const bad of ['11', '-1', '4.5', 'ten', '']) expect(parseRating(bad, 0, 10)).toBeUndefined()
    expect(parseRating('0', 1, 5)).toBeUndefined()
  })
})
