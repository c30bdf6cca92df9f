import { getConnInfo } from '@hono/node-server/conninfo'
import type { Context } from 'hono'
import ipaddr from 'ipaddr.js'
import { trustedForwardedValue } from './forwarded'

/**
 * The caller's network address, as the log shows it: the socket's peer, or behind
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

/** The key per-client limits count the caller under: its network (`networkOf`), not its exact address. */
export const clientKey = (c: Context, trustProxyHops: number): string => networkOf(clientAddress(c, trustProxyHops))

/**
 * The network one client holds: an IPv4 address itself, an IPv6 address's /64. A single home or
 * server is given a whole /64 (2^64 addresses to rotate through), so a limit kept per IPv6 address
 * limits nothing. An IPv4 address written as IPv6 (`::ffff:203.0.113.7`, what a dual-stack socket
 * reports) is that IPv4 address. Anything else (a name a proxy wrote) is its own key.
 */
export function networkOf(address: string): string {
  // `[2001:db8::1]:443`, as some proxies write an IPv6 peer with its port.
  const bare = /^\[([^\]]+)\](?::\d+)?$/.exec(address)?.[1] ?? address
  if (!ipaddr.isValid(bare)) return address
  const parsed = ipaddr.process(bare)
  if (parsed.kind() === 'ipv4') return parsed.toString()
  const network = ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toNormalizedString()}/64`)
  return `${network.toString()}/64`
}
