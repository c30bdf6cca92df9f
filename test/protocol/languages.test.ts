import { describe, expect, it } from 'vitest'
import { bundledLanguage, directionOf } from '../../src/protocol/languages'

describe('languages', () => {
  it('finds the bundled language by lookup: each tag, then without its last subtag, best tag first', () => {
    expect(bundledLanguage(['pt-BR'])).toBe('pt')
    expect(bundledLanguage(['zh-Hant-TW', 'fr-CA', 'de'])).toBe('fr')
    expect(bundledLanguage(['ES-mx'])).toBe('es')
    expect(bundledLanguage(['en-GB', 'fr'])).toBe('en')
    expect(bundledLanguage(['ko', 'sw'])).toBe('en')
    expect(bundledLanguage([])).toBe('en')
  })

  it('knows which languages are written right to left', () => {
    expect(['ar', 'ar-EG', 'he', 'fa-IR', 'ur', 'ckb', 'yi'].map(directionOf)).toEqual(Array(7).fill('rtl'))
    expect(['en', 'fr', 'ja', 'arn', 'her', 'urd-x'].map(directionOf)).toEqual(Array(6).fill('ltr'))
  })
})
