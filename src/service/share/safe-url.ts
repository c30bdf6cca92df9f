/**
 * URLs a flow's metadata puts into the share page's head. They come from the flow's settings, so
 * they are checked here (scheme, shape, length) and escaped by the template that writes them.
 */

/** Longer than any real image address; keeps a pasted blob from bloating every page view. */
const MAX_WEB_URL_LENGTH = 4_096
/** Inline favicons are small; a bigger data URL belongs on a server. */
const MAX_DATA_URL_LENGTH = 32_768

/**
 * Raster and SVG favicons. An SVG favicon is rendered as an image, so its scripts never run;
 * quotes and angle brackets may stay (the template escapes them), control characters may not.
 */
const DATA_IMAGE_URL =
  /^data:image\/(?:png|gif|jpeg|webp|avif|svg\+xml|x-icon|vnd\.microsoft\.icon)(?:;[\w.+=-]+)*,[^\u0000-\u001f\u007f]*$/i

/** An absolute http(s) URL without credentials, normalised; undefined for anything else. */
export function webUrl(value: string | undefined): string | undefined {
  if (value === undefined || value.length > MAX_WEB_URL_LENGTH) return undefined
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return undefined // relative, or not a URL at all
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
  if (url.username !== '' || url.password !== '' || url.hostname === '') return undefined
  return url.href
}

/** A favicon address: an http(s) URL or an inline `data:image/…` URL. */
export function iconUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  if (/^data:/i.test(value)) {
    return value.length <= MAX_DATA_URL_LENGTH && DATA_IMAGE_URL.test(value) ? value : undefined
  }
  return webUrl(value)
}
