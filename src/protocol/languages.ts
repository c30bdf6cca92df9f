/**
 * Languages, as the widget and the service's share page both need them: which ones the widget
 * speaks, and which way each is written.
 */

/** The widget's bundled translations besides English (each a chunk: widget/i18n/locales/). */
export const TRANSLATED_LANGUAGES = ['ar', 'de', 'es', 'fr', 'he', 'it', 'ja', 'nl', 'pt'] as const
export type TranslatedLanguage = (typeof TRANSLATED_LANGUAGES)[number]

/** Primary language subtags written right to left. */
const RIGHT_TO_LEFT = /^(ar|arc|ckb|dv|fa|he|iw|ks|ku|ps|sd|syr|ug|ur|yi)(-|$)/i

/** The direction text in language `tag` (a BCP 47 tag) is written in. */
export const directionOf = (tag: string): 'ltr' | 'rtl' => (RIGHT_TO_LEFT.test(tag) ? 'rtl' : 'ltr')

/**
 * The bundled language for `tags` (the visitor's, best first), by lookup: each tag, then the
 * same tag without its last subtag, and so on (`pt-BR` → `pt`); none of them: English.
 */
export function bundledLanguage(tags: readonly string[]): TranslatedLanguage | 'en' {
  for (const tag of tags) {
    for (let range = tag.toLowerCase(); range; range = range.slice(0, Math.max(0, range.lastIndexOf('-')))) {
      if (range === 'en' || (TRANSLATED_LANGUAGES as readonly string[]).includes(range)) return range as TranslatedLanguage | 'en'
    }
  }
  return 'en'
}
