import { afterEach, describe, expect, it, vi } from 'vitest'
import { createLocale, say, translate } from '../../../src/widget/i18n/locale'
import { ENGLISH } from '../../../src/widget/i18n/strings'

afterEach(() => {
  document.documentElement.removeAttribute('lang')
  document.body.replaceChildren()
  vi.restoreAllMocks()
})

/** An element in the page, inside `markup`'s innermost element when given. */
function element(markup = ''): HTMLElement {
  const holder = document.createElement('div')
  holder.innerHTML = markup
  let inner: Element = holder
  while (inner.firstElementChild) inner = inner.firstElementChild
  const chat = document.createElement('flow-chat-probe')
  inner.append(chat)
  document.body.append(holder)
  return chat
}

const languages = (tags: string[]) => vi.spyOn(navigator, 'languages', 'get').mockReturnValue(tags)

describe('a chat’s language', () => {
  it('is its own lang, else the nearest one above it, else the page’s, else the browser’s', () => {
    document.documentElement.lang = 'de'
    languages(['ja'])
    const own = element()
    own.setAttribute('lang', 'fr')
    expect(createLocale(own, '', undefined).lang).toBe('fr')
    expect(createLocale(element('<section lang="es"><p></p></section>'), '', undefined).lang).toBe('es')
    expect(createLocale(element(), '', undefined).lang).toBe('de')
    document.documentElement.removeAttribute('lang')
    expect(createLocale(element(), '', undefined).lang).toBe('ja')
  })

  it('finds the page’s language from inside a shadow root (a launcher’s chat)', () => {
    const host = element('<div lang="he"></div>')
    const inner = document.createElement('flow-chat-probe')
    host.attachShadow({ mode: 'open' }).append(inner)
    expect(createLocale(inner, '', undefined)).toMatchObject({ lang: 'he', dir: 'rtl' })
  })

  it('leaves out tags Intl cannot read, and falls back to English', () => {
    languages(['en_US!', 'not a tag'])
    expect(createLocale(element(), '', undefined).lang).toBe('en')
  })

  it('is written right to left in Arabic, Hebrew, Persian and Urdu, unless the page sets `dir`', () => {
    for (const lang of ['ar', 'he-IL', 'fa', 'ur'])
      expect(createLocale(element(`<div lang="${lang}"></div>`), '', undefined).dir).toBe('rtl')
    expect(createLocale(element('<div lang="fr"></div>'), '', undefined).dir).toBe('ltr')
    expect(createLocale(element('<div lang="ar"></div>'), 'ltr', undefined).dir).toBe('ltr')
    expect(createLocale(element('<div lang="en"></div>'), 'rtl', undefined).dir).toBe('rtl')
  })
})

describe('a chat’s words', () => {
  it('are English at once, then the bundled translation of the nearest language, by subtag (pt-BR → pt)', async () => {
    const locale = createLocale(element('<div lang="pt-BR"></div>'), '', undefined)
    expect(locale.lang).toBe('pt-BR')
    expect(translate(locale, 'send')).toBe('Send')
    await vi.waitFor(() => expect(translate(locale, 'send')).toBe('Enviar'))
    expect(translate(locale, 'typeAnswer')).toBe('Digite sua resposta…')
  })

  it('stay English for a language without a translation, written the language’s way', async () => {
    const locale = createLocale(element('<div lang="fa"></div>'), '', undefined)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect([translate(locale, 'send'), locale.dir]).toEqual(['Send', 'rtl'])
  })

  it('take the page’s overrides over both, leaving out what is no text', async () => {
    const overrides = { send: 'Go', chosen: { one: 'One picked', other: '{count} picked' }, retry: 42 } as never
    const locale = createLocale(element('<div lang="fr"></div>'), '', overrides)
    expect(translate(locale, 'send')).toBe('Go')
    await vi.waitFor(() => expect(translate(locale, 'tryAgain')).toBe('Réessayer'))
    expect([translate(locale, 'send'), translate(locale, 'retry'), translate(locale, 'chosen', { count: 3 })]).toEqual([
      'Go',
      'Renvoyer',
      '3 picked',
    ])
  })

  it('fill in values, numbers as the language writes them, and choose plural forms by the language’s rules', async () => {
    const locale = createLocale(element('<div lang="ar"></div>'), '', undefined)
    await vi.waitFor(() => expect(translate(locale, 'send')).toBe('إرسال'))
    expect(translate(locale, 'chosen', { count: 2 })).toBe('تم تحديد خيارين')
    expect(translate(locale, 'chosen', { count: 5 })).toBe(`تم تحديد ${new Intl.NumberFormat('ar').format(5)} خيارات`)
    expect(translate(locale, 'chosen', { count: 11 })).toBe(`تم تحديد ${new Intl.NumberFormat('ar').format(11)} خيارًا`)
    const english = createLocale(element('<div lang="en-GB"></div>'), '', undefined)
    expect([translate(english, 'chosen', { count: 1 }), translate(english, 'chosen', { count: 1234 })]).toEqual([
      '1 choice selected',
      '1,234 choices selected',
    ])
    expect(translate(english, 'openChat', { name: 'Help' })).toBe('Open chat: Help')
  })

  it('says words other layers chose by their string id in the chat’s language, and words without one as they are', async () => {
    const locale = createLocale(element('<div lang="de"></div>'), '', undefined)
    await vi.waitFor(() => expect(translate(locale, 'send')).toBe('Senden'))
    expect(say(locale, { text: ENGLISH.failNetwork, id: 'failNetwork' })).toBe(
      'Der Chat-Dienst ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
    )
    // The English text alone is the service's words, even when it reads like one of the widget's own.
    expect(say(locale, { text: ENGLISH.failNetwork })).toBe(ENGLISH.failNetwork)
    expect(say(locale, { text: 'Please enter a valid e-mail.' })).toBe('Please enter a valid e-mail.')
  })
})
