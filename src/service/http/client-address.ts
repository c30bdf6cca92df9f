import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context } from 'hono'
import { trustedForwardedValue } from './forwarded'

/**
 * The caller's network address, the key for per-client rate limits: the socket's peer, or behind
 * `trustProxyHops` proxies the `X-Forwarded-For` entry the outermost of them wrote (see forwarded.ts).
 */
export function clientAddress(c: Context, trustProxyHops: number): string {
  const forwarded = trustedForwardedValue(c.req.header('x-forwarded-for'), trustProxyHops)
  if (forwarded) return forwarded
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    // In-process requests (`app.request`, tests) have no socket.
    return 'local'
  }
}
