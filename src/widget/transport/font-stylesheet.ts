import { REQUEST_TIMEOUT_MS } from '../../protocol/time-limits'
import { TransportError } from './errors'
import type { FetchLike } from './http'

/**
 * Reads a web-font stylesheet (Google Fonts style `@font-face` rules) as text, so the widget can
 * register the faces itself instead of adding a stylesheet to the host page.
 */
export async function fetchFontStylesheet(
  url: string,
  options: { signal?: AbortSignal; timeoutMs?: number; fetch?: FetchLike } = {},
): Promise<string> {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? REQUEST_TIMEOUT_MS)
  const onAbort = () => controller.abort()
  options.signal?.addEventListener('abort', onAbort, { once: true })
  try {
    const response = await (options.fetch ?? globalThis.fetch)(url, {
      signal: controller.signal,
      credentials: 'omit',
    })
    if (!response.ok) {
      throw new TransportError('http', `Font stylesheet answered with status ${response.status}`, {
        status: response.status,
      })
    }
    return await response.text()
  } catch (cause) {
    if (cause instanceof TransportError) throw cause
    const kind = options.signal?.aborted ? 'aborted' : 'network'
    throw new TransportError(kind, 'Could not load the font stylesheet', { cause })
  } finally {
    clearTimeout(timer)
    options.signal?.removeEventListener('abort', onAbort)
  }
}
