import type { Context } from 'hono'

const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/

const first = (value: string | undefined) => value?.split(',')[0]?.trim()

/**
 * The page's origin as the visitor's browser sees it. Behind a proxy the operator trusts
 * (`trustProxy`), that is the forwarded scheme and host; otherwise the request's own.
 */
export function pageOrigin(c: Context, trustProxy: boolean): string {
  const url = new URL(c.req.url)
  if (trustProxy) {
    const proto = first(c.req.header('x-forwarded-proto'))?.toLowerCase()
    const host = first(c.req.header('x-forwarded-host'))
    if (proto === 'http' || proto === 'https') url.protocol = `${proto}:`
    if (host && HOST.test(host)) url.host = host
  }
  return url.origin
}
