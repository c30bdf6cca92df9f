import { bundledLanguage, directionOf } from '../../protocol/languages'

/** A BCP 47 language tag, by its shape (`fr`, `pt-BR`, `zh-Hant-TW`): nothing else reaches the page. */
const TAG = /^[a-z]{2,3}(-[a-z\d]{2,8}){0,4}$/i

/** The visitor's languages from an `Accept-Language` header, best first (a bounded number of them). */
function acceptedLanguages(header: string | undefined): string[] {
  return (header ?? '')
    .slice(0, 500)
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';')
      // No weight: 1; a weight that is not one (`q=abc`): the entry is left out.
      const weight = params.join(';').trim()
      const q = weight ? Number(/^q=([01](\.\d{0,3})?)$/i.exec(weight)?.[1] ?? 0) : 1
      return { tag: tag.trim(), q, index }
    })
    .filter(({ tag, q }) => q > 0 && TAG.test(tag))
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map(({ tag }) => tag)
}

/**
 * The share page's language and direction (`<html lang dir>`), which the chat then speaks: the
 * flow's own (`settings.metadata.lang`), else the visitor's first language the widget has words
 * for (by `Accept-Language`, `pt-BR` kept as the visitor wrote it), else English.
 */
export function pageLanguage(flowLang: string | undefined, acceptLanguage: string | undefined): { lang: string; dir: 'ltr' | 'rtl' } {
  const lang =
    (flowLang && TAG.test(flowLang) ? flowLang : undefined) ??
    acceptedLanguages(acceptLanguage).find((tag) => bundledLanguage([tag]) !== 'en' || /^en\b/i.test(tag)) ??
    'en'
  return { lang, dir: directionOf(lang) }
}
