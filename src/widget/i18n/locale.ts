import { type ReadonlySignal, signal } from '@preact/signals-core'
import { bundledLanguage, directionOf, type TranslatedLanguage } from '../../protocol/languages'
import { ENGLISH, type PluralForms, type StringId, type StringOverrides, type Translation, type Words } from './strings'

/** One chat's language: what Intl formats with, which way it is written, and its words. */
export interface Locale {
  /** The visitor's language as asked (`pt-BR`), for Intl's numbers, plurals and dates. */
  readonly lang: string
  readonly dir: 'ltr' | 'rtl'
  /** English until the language's translation is here, then it; the page's `strings` over both. */
  readonly strings: ReadonlySignal<Translation>
}

/** Each bundled translation, a chunk of its own, requested when a chat in its language starts. */
const TRANSLATIONS: Record<TranslatedLanguage, () => Promise<{ strings: Translation }>> = {
  ar: () => import('./locales/ar'),
  de: () => import('./locales/de'),
  es: () => import('./locales/es'),
  fr: () => import('./locales/fr'),
  he: () => import('./locales/he'),
  it: () => import('./locales/it'),
  ja: () => import('./locales/ja'),
  nl: () => import('./locales/nl'),
  pt: () => import('./locales/pt'),
}

/** The nearest `lang` attribute from `element` up: its own, a launcher's, the page's (through shadow roots). */
function nearestLang(element: Element): string | undefined {
  for (let node: Element | undefined = element; node; ) {
    const marked = node.closest('[lang]')
    if (marked) return marked.getAttribute('lang')!.trim()
    const root = node.getRootNode()
    node = root instanceof ShadowRoot ? root.host : undefined
  }
  return undefined
}

/** The languages a chat is asked to speak, best first: the nearest `lang`, else the browser's (a tag Intl cannot read left out). */
function askedLanguages(element: Element): string[] {
  const lang = nearestLang(element)
  return (lang ? [lang] : navigator.languages).filter((tag) => {
    try {
      return Intl.getCanonicalLocales(tag).length > 0
    } catch {
      return false
    }
  })
}

/** What the `strings` option may give an id: a text, or plural forms (with `other`). */
export const isText = (value: unknown): value is string | PluralForms =>
  typeof value === 'string' || typeof (value as PluralForms | null)?.other === 'string'

/**
 * The locale of a chat in `element`: its language, its direction (`dir` when the page set one,
 * else the language's) and its words, English at once and the translation as soon as its chunk is
 * here. `overrides` (the `strings` option) win over both; what they hold that is not a text or
 * plural forms is left out (and reported by check-strings.ts).
 */
export function createLocale(element: Element, dir: string, overrides: StringOverrides | undefined): Locale {
  const asked = askedLanguages(element)
  const lang = asked[0] ?? 'en'
  const own: Record<string, unknown> = {}
  for (const [id, text] of Object.entries(overrides ?? {})) if (isText(text)) own[id] = text
  const strings = signal({ ...ENGLISH, ...own } as Translation)
  const bundled = bundledLanguage(asked)
  if (bundled !== 'en') {
    // A translation that cannot load leaves the chat in English: nothing waits for it.
    TRANSLATIONS[bundled]().then(
      (chunk) => (strings.value = { ...chunk.strings, ...own } as Translation),
      () => {},
    )
  }
  return { lang, dir: dir === 'ltr' || dir === 'rtl' ? dir : directionOf(lang), strings }
}

/**
 * The text of `id` in `locale`, with `{name}` filled from `values` (numbers written as the
 * language writes them) and, for plural forms, the form `{count}` takes in that language. Read
 * while rendering, it renders the view again when the translation arrives.
 */
export function translate(locale: Locale, id: StringId, values?: Record<string, string | number>): string {
  let text: string | PluralForms = locale.strings.value[id]
  if (typeof text !== 'string') text = text[new Intl.PluralRules(locale.lang).select(Number(values?.count))] ?? text.other
  return text.replace(/\{(\w+)\}/g, (mark, name: string) => {
    const value = values?.[name]
    return typeof value === 'number' ? new Intl.NumberFormat(locale.lang).format(value) : (value ?? mark)
  })
}

/** `words` in the chat's language: its string when it has an id, else its text as written. */
export const say = (locale: Locale, words: Words): string => (words.id ? translate(locale, words.id) : words.text)
