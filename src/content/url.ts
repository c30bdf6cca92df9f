/** Schemes a link in a message may use: anything else (javascript:, data:, vbscript:, …) is dropped. */
export const LINK_SCHEMES: readonly string[] = ['http:', 'https:', 'mailto:', 'tel:']
/** Schemes for images, video, audio, iframes and redirects. */
export const WEB_SCHEMES: readonly string[] = ['http:', 'https:']

const MAX_URL_LENGTH = 8_192

const pageBase = (): string | undefined =>
  typeof location === 'undefined' ? undefined : location.href

/**
 * The absolute, normalised form of `raw` when its scheme is allowed, else `null`. Parsing with the
 * URL parser (not a regex) means tricks like `java\tscript:` or `JaVaScRiPt:` are judged by what a
 * browser would actually open. Relative URLs resolve against the page.
 */
export function safeUrl(
  raw: unknown,
  schemes: readonly string[] = LINK_SCHEMES,
  base: string | undefined = pageBase(),
): string | null {
  if (typeof raw !== 'string') return null
  const trimmed = raw.trim()
  if (!trimmed || trimmed.length > MAX_URL_LENGTH) return null
  try {
    const url = new URL(trimmed, base)
    return schemes.includes(url.protocol) ? url.href : null
  } catch {
    return null
  }
}
