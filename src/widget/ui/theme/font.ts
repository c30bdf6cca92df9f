import type { Theme } from '../../../protocol/index'
import { safeUrl, WEB_SCHEMES } from '../../content/url'

export const SYSTEM_FONT_STACK = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif'

/** The Google Fonts CSS API: where a family the theme names is loaded from, unless the owner says otherwise. */
export const GOOGLE_FONTS_CSS = 'https://fonts.googleapis.com/css2'

/** CSS generic families: the visitor's own fonts, nothing to download. */
const GENERIC =
  /^(?:serif|sans-serif|monospace|cursive|fantasy|math|emoji|fangsong|system-ui|ui-serif|ui-sans-serif|ui-monospace|ui-rounded)$/i

type ThemeFont = NonNullable<Theme['general']>['font']

export interface FontRequest {
  /** The family as the theme names it (letters, digits, spaces, hyphens and underscores only). */
  family: string
  /**
   * The name the widget registers its faces under: private, so a host page's own font of the same
   * name is neither replaced nor mixed with ours.
   */
  alias: string
  /** Stylesheets with `@font-face` rules, or font files: tried in order until one loads. */
  urls: string[]
  kind: 'stylesheet' | 'file'
}

/**
 * Where web fonts come from, as the element's `fonts` option says: empty (the default) loads a
 * named family from Google Fonts and a custom font from its own address; `none` loads no web font
 * at all (the visitor's fonts only); an http(s) URL is a Google Fonts compatible CSS API of the
 * owner's choice (a self-hosted mirror) used instead of Google's.
 */
export type FontSource = string

const cleanFamily = (value: unknown) =>
  typeof value === 'string'
    ? value
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 80)
    : ''

const familyOf = (font: ThemeFont) => (font ? cleanFamily(typeof font === 'string' ? font : font.family) : '')

const FONT_FILE = /\.(woff2?|ttf|otf)(\?|#|$)/i

/**
 * What to download for the theme's font, if anything: nothing for a generic family (`sans-serif`,
 * `system-ui`, …) or when `source` is `none`. A plain string or a `Google` font names a family of
 * the CSS API (`source`, else Google Fonts); a `Custom` font brings its own stylesheet or file URL,
 * relative to `base` (the flow service) when relative.
 */
export function fontRequest(font: ThemeFont, source: FontSource = '', base?: string): FontRequest | undefined {
  const family = familyOf(font)
  if (!family || GENERIC.test(family) || source.trim() === 'none') return undefined
  const alias = `flowchat ${family}`
  if (typeof font === 'object' && font?.type === 'Custom') {
    const url = safeUrl(font.url, WEB_SCHEMES, base)
    return url ? { family, alias, urls: [url], kind: FONT_FILE.test(url) ? 'file' : 'stylesheet' } : undefined
  }
  const api = safeUrl(source || GOOGLE_FONTS_CSS, WEB_SCHEMES)
  if (!api) return undefined
  const css = `${api}${api.includes('?') ? '&' : '?'}family=${encodeURIComponent(family).replace(/%20/g, '+')}`
  // Real bold weights when the family has them; Google refuses the whole request when it does not.
  return { family, alias, urls: [`${css}:wght@400;600;700&display=swap`, `${css}&display=swap`], kind: 'stylesheet' }
}

/**
 * The `font-family` value: a generic family as it is; else our faces (if any load), a locally
 * installed copy, then the system stack.
 */
export function fontFamilyValue(font: ThemeFont): string | undefined {
  const family = familyOf(font)
  if (!family) return undefined
  if (GENERIC.test(family)) return family.toLowerCase()
  return `"flowchat ${family}", "${family}", ${SYSTEM_FONT_STACK}`
}
