import { fontSchema } from '../../protocol/theme-font'
import { safeUrl, WEB_SCHEMES } from '../content/url'
import { fetchFontStylesheet } from '../transport/font-stylesheet'
import { type FontRequest, type FontSource, fontRequest } from '../ui/theme/font'

/** Aliases already registered in this document: each font loads once, whatever the widget count. */
const registered = new Map<string, Promise<void>>()

const descriptor = (block: string, name: string) => {
  const match = new RegExp(`${name}\\s*:\\s*([^;]+)`).exec(block)
  const value = match?.[1]?.trim()
  // Descriptor values in a font stylesheet are plain tokens; anything else is not ours to pass on.
  return value && /^[\w\s%+,.?-]+$/.test(value) ? value : undefined
}

/**
 * Rebuilds each `@font-face` of a stylesheet as a FontFace under our private alias, from its URLs
 * and a few descriptors only: nothing of the stylesheet is inserted into any document as CSS.
 */
export function parseFontFaces(css: string, alias: string): FontFace[] {
  const faces: FontFace[] = []
  for (const [, block = ''] of css.matchAll(/@font-face\s*\{([^}]*)\}/g)) {
    const urls = [...block.matchAll(/url\(\s*(['"]?)([^'")\s]+)\1\s*\)/g)]
      .map((match) => safeUrl(match[2], WEB_SCHEMES))
      .filter((url): url is string => url !== null)
    if (urls.length === 0) continue
    try {
      faces.push(
        new FontFace(alias, urls.map((url) => `url("${url}")`).join(', '), {
          style: descriptor(block, 'font-style') ?? 'normal',
          weight: descriptor(block, 'font-weight') ?? 'normal',
          stretch: descriptor(block, 'font-stretch') ?? 'normal',
          unicodeRange: descriptor(block, 'unicode-range') ?? 'U+0-10FFFF',
          display: 'swap',
        }),
      )
    } catch {
      // One malformed face must not cost the others.
    }
  }
  return faces
}

async function register(request: FontRequest): Promise<void> {
  let lastError: unknown = new Error('no font source')
  for (const url of request.urls) {
    try {
      const faces =
        request.kind === 'file'
          ? [new FontFace(request.alias, `url("${url}")`, { display: 'swap' })]
          : parseFontFaces(await fetchFontStylesheet(url), request.alias)
      if (faces.length === 0) throw new Error('the stylesheet has no usable @font-face')
      // Faces load lazily, only for the characters the widget actually shows.
      for (const face of faces) document.fonts.add(face)
      return
    } catch (error) {
      lastError = error
    }
  }
  throw lastError
}

/**
 * Makes the theme's font available to the widget without touching the host page's styles: faces
 * are registered under a private family name the page never uses. When this fails the stylesheet's
 * font stack falls back to the system fonts on its own.
 */
export function loadThemeFont(request: FontRequest): Promise<void> {
  if (typeof FontFace === 'undefined' || typeof document === 'undefined' || !document.fonts) {
    return Promise.resolve()
  }
  const key = `${request.alias}\n${request.urls.join('\n')}`
  let pending = registered.get(key)
  if (!pending) {
    pending = register(request)
    // A failure is not cached: a later widget (or a reconnect) may try again.
    pending.catch(() => registered.delete(key))
    registered.set(key, pending)
  }
  return pending
}

/**
 * Loads the font the theme names, if it names one to download from `source` (the element's
 * `fonts`; see `fontRequest`). The core did not read the font: it is validated here first.
 */
export async function loadFontOf(font: unknown, source?: FontSource, base?: string): Promise<void> {
  const parsed = fontSchema.safeParse(font)
  if (!parsed.success) throw new Error("The theme's font is not one this widget can read")
  const request = fontRequest(parsed.data, source, base)
  if (!request) return
  await loadThemeFont(request).catch((error: unknown) => {
    throw new Error(`The font "${request.family}" could not be loaded (${String(error)})`)
  })
}
