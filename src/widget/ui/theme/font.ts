import type { Theme } from '../../../protocol/index'
import { WEB_SCHEMES, safeUrl } from '../../content/url'

export const SYSTEM_FONT_STACK =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif'

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

const cleanFamily = (value: unknown) =>
  typeof value === 'string' ? value.replace(/[^\p{L}\p{N} _-]/gu, '').replace(/\s+/g, ' ').trim().slice(0, 80) : ''

const FONT_FILE = /\.(woff2?|ttf|otf)(\?|#|$)/i

/**
 * What to load for the theme's font. A plain string or a `Google` font names a Google Fonts
 * family; a `Custom` font brings its own stylesheet or file URL.
 */
export function fontRequest(font: NonNullable<Theme['general']>['font']): FontRequest | undefined {
  if (!font) return undefined
  const family = cleanFamily(typeof font === 'string' ? font : font.family)
  if (!family) return undefined
  const alias = `flowchat ${family}`
  if (typeof font === 'object' && font.type === 'Custom') {
    const url = safeUrl(font.url, WEB_SCHEMES)
    if (!url) return undefined
    return { family, alias, urls: [url], kind: FONT_FILE.test(url) ? 'file' : 'stylesheet' }
  }
  const query = encodeURIComponent(family).replace(/%20/g, '+')
  const css = 'https://fonts.googleapis.com/css2?family='
  // Real bold weights when the family has them; Google refuses the whole request when it does not.
  return {
    family,
    alias,
    urls: [`${css}${query}:wght@400;600;700&display=swap`, `${css}${query}&display=swap`],
    kind: 'stylesheet',
  }
}

/** The `font-family` value: our faces, then a locally installed copy, then the system stack. */
export function fontFamilyValue(request: FontRequest | undefined): string | undefined {
  if (!request) return undefined
  return `"${request.alias}", "${request.family}", ${SYSTEM_FONT_STACK}`
}
