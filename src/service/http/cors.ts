import type { Context } from 'hono'
import { HttpError } from './errors'

/**
 * CORS for the browser-facing operations. Chat operations follow the flow's
 * `settings.security.allowedOrigins` (empty: every origin); `publishedFlow` is open to every
 * origin because publishable tokens are meant for public pages.
 */

export const CHAT_CORS = {
  methods: 'POST, OPTIONS',
  headers: 'Content-Type, Idempotency-Key',
}
export const PUBLISHED_FLOW_CORS = {
  methods: 'GET, OPTIONS',
  headers: 'Authorization, Content-Type',
}

/** Compares origins the way browsers send them: scheme://host[:port], lower case, no path. */
export function normalizeOrigin(origin: string): string {
  const trimmed = origin.trim()
  try {
    const url = new URL(trimmed)
    if (url.origin !== 'null') return url.origin
  } catch {
    // Not a URL (for example the literal "null"): compare as written.
  }
  return trimmed.toLowerCase().replace(/\/+$/, '')
}

export function isOriginAllowed(origin: string, allowedOrigins: readonly string[]): boolean {
  if (allowedOrigins.length === 0) return true
  const wanted = normalizeOrigin(origin)
  return allowedOrigins.some((allowed) => normalizeOrigin(allowed) === wanted)
}

export function allowedOriginsOf(settings: unknown): string[] {
  const list = (settings as { security?: { allowedOrigins?: unknown } } | null | undefined)?.security?.allowedOrigins
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : []
}

/**
 * For a chat request: refuses a browser origin the flow does not allow, and otherwise names the
 * origin in the CORS headers (also on error responses, so the widget can read them).
 */
export function applyChatOrigin(c: Context, allowedOrigins: readonly string[]): void {
  const origin = c.req.header('origin')
  if (origin === undefined) return // not a browser cross-origin request
  if (!isOriginAllowed(origin, allowedOrigins)) {
    throw new HttpError('origin_not_allowed', `Origin ${origin} is not allowed to use this flow.`)
  }
  setAllowOrigin(c, origin)
}

export function setAllowOrigin(c: Context, origin: string): void {
  c.header('Access-Control-Allow-Origin', origin)
  c.header('Access-Control-Expose-Headers', 'Retry-After')
  c.header('Vary', 'Origin')
}

/** Answers a preflight for an origin already known to be allowed. */
export function preflightResponse(c: Context, origin: string, policy: { methods: string; headers: string }): Response {
  setAllowOrigin(c, origin)
  c.header('Access-Control-Allow-Methods', policy.methods)
  c.header('Access-Control-Allow-Headers', policy.headers)
  c.header('Access-Control-Max-Age', '600')
  return c.body(null, 204)
}
