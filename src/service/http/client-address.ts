import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context } from 'hono'

/**
 * The caller's network address, the key for per-client rate limits. `X-Forwarded-For` is only
 * believed when the operator says a trusted proxy sets it; otherwise anyone could pick a key.
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim()
    if (forwarded) return forwarded
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    // In-process requests (`app.request`, tests) have no socket.
    return 'local'
  }
}
