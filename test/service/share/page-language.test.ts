import { describe, expect, it } from 'vitest'
import { pageLanguage } from '../../../src/service/share/page-language'
import { parsePage } from './page-dom'
import { shareOn, useShareHarness } from './share-harness'

describe('the share page’s language', () => {
  it('is the flow’s, else the visitor’s first language the chat speaks, else English; its direction follows', () => {
    expect(pageLanguage('fr', 'de')).toEqual({ lang: 'fr', dir: 'ltr' })
    expect(pageLanguage(undefined, 'ko, ar-EG;q=0.8, fr;q=0.9')).toEqual({ lang: 'fr', dir: 'ltr' })
    expect(pageLanguage(undefined, 'ko, ar-EG;q=0.9')).toEqual({ lang: 'ar-EG', dir: 'rtl' })
    expect(pageLanguage(undefined, 'pt-BR,pt;q=0.9')).toEqual({ lang: 'pt-BR', dir: 'ltr' })
    expect(pageLanguage(undefined, 'en-GB, fr')).toEqual({ lang: 'en-GB', dir: 'ltr' })
    expect(pageLanguage(undefined, 'ko, sw')).toEqual({ lang: 'en', dir: 'ltr' })
    expect(pageLanguage(undefined, undefined)).toEqual({ lang: 'en', dir: 'ltr' })
    expect(pageLanguage('he', undefined)).toEqual({ lang: 'he', dir: 'rtl' })
  })

  it('takes only what has the shape of a language tag, from the flow and from the header', () => {
    expect(pageLanguage('"><script>alert(1)</script>', 'fr')).toEqual({ lang: 'fr', dir: 'ltr' })
    expect(pageLanguage(undefined, '*, de;q=0, <b>;q=1, es;q=abc, it;q=0.5')).toEqual({ lang: 'it', dir: 'ltr' })
    expect(pageLanguage(undefined, `${'x,'.repeat(10_000)}fr`)).toEqual({ lang: 'en', dir: 'ltr' })
  })
})

const { sharedFlow, get } = useShareHarness()

describe('the share page', () => {
  it('sets <html lang dir> from the flow’s settings, else from the visitor’s Accept-Language', async () => {
    const french = await sharedFlow(shareOn({ metadata: { lang: 'fr' } }))
    const html = async (path: string, headers: Record<string, string> = {}) => {
      const res = await get(path, headers)
      expect(res.headers.get('vary')).toContain('Accept-Language')
      const root = parsePage(await res.text()).documentElement
      return [root.getAttribute('lang'), root.getAttribute('dir')]
    }
    expect(await html(`/${french.publicId}`, { 'Accept-Language': 'ar' })).toEqual(['fr', 'ltr'])
    const any = await sharedFlow(shareOn())
    expect(await html(`/${any.publicId}`, { 'Accept-Language': 'he-IL,he;q=0.9,en;q=0.8' })).toEqual(['he-IL', 'rtl'])
    expect(await html(`/${any.publicId}`)).toEqual(['en', 'ltr'])
  })
})
