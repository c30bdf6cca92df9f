import type { Context } from 'hono'
import { trustedForwardedValue } from '../http/forwarded'

const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/

/**
 * The page's origin as the visitor's browser sees it. Behind proxies the operator trusts
 * (`trustProxyHops`), that is the forwarded scheme and host; otherwise the request's own.
 */
export function pageOrigin(c: Context, trustProxyHops: number): string {
  const url = new URL(c.req.url)
  const proto = trustedForwardedValue(c.req.header('x-forwarded-proto'), trustProxyHops)?.toLowerCase()
  const host = trustedForwardedValue(c.req.header('x-forwarded-host'), trustProxyHops)
  if (proto === 'http' || proto === 'https') url.protocol = `${proto}:`
  if (host && HOST.test(host)) url.host = host
  return url.origin
}
