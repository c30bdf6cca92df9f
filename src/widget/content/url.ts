/** Schemes for what the widget loads: images, video, audio, frames, fonts, stylesheets. */
export const WEB_SCHEMES: readonly string[] = ['http:', 'https:']
/**
 * Schemes a visitor may be sent to, by a link in a message or a redirect: the web, and the apps
 * that write, call or text. Anything else (javascript:, data:, vbscript:, blob:, …) is dropped.
 */
export const LINK_SCHEMES: readonly string[] = [...WEB_SCHEMES, 'mailto:', 'tel:', 'sms:']

const MAX_URL_LENGTH = 8_192

const pageBase = (): string | undefined => (typeof location === 'undefined' ? undefined : location.href)

/**
 * The absolute, normalised form of `raw` when its scheme is allowed, else `null`. Parsing with the
 * URL parser (not a regex) means tricks like `java\tscript:` or `JaVaScRiPt:` are judged by what a
 * browser would actually open. Relative URLs resolve against `base` (itself resolved against the
 * page), else against the page: a flow's media against the flow service (Widget.base), links and
 * the host page's own options against the page.
 */
export function safeUrl(raw: unknown, schemes: readonly string[] = LINK_SCHEMES, base?: string): string | null {
  if (typeof raw !== 'string') return null
  const trimmed = raw.trim()
  if (!trimmed || trimmed.length > MAX_URL_LENGTH) return null
  try {
    const page = pageBase()
    const url = new URL(trimmed, base ? new URL(base, page) : page)
    return schemes.includes(url.protocol) ? url.href : null
  } catch {
    return null
  }
}

/**
 * Raster images inlined as `data:` URLs. SVG is left out: it is markup, and an `<img>` is the only
 * place where its scripts would stay inert, so the allow-list does not rely on that.
 */
const DATA_IMAGE = /^data:image\/(?:png|gif|jpeg|webp|avif|bmp)(?:;base64)?,/i

/** An image source: a web URL (as `safeUrl` with the web schemes) or an inline raster image. */
export function safeImageUrl(raw: unknown, base?: string): string | null {
  if (typeof raw === 'string') {
    const trimmed = raw.trim()
    if (DATA_IMAGE.test(trimmed)) return trimmed.length <= MAX_DATA_IMAGE_LENGTH ? trimmed : null
  }
  return safeUrl(raw, WEB_SCHEMES, base)
}

/** Inline images are for small icons; anything bigger belongs on a server. */
const MAX_DATA_IMAGE_LENGTH = 256 * 1024
