import ipaddr from 'ipaddr.js'
import { noCallableAddress, OutboundError, refused } from './outbound-errors'
import { REFUSED_HOST_NAMES, REFUSED_RANGES, type RefusedRange } from './refused-ranges'

type Address = ipaddr.IPv4 | ipaddr.IPv6
type Cidr = [Address, number]

const PARSED_RANGES: ReadonlyArray<{ range: RefusedRange; cidr: Cidr }> = REFUSED_RANGES.map((range) => ({
  range,
  cidr: ipaddr.parseCIDR(range.cidr),
}))

/** `[::1]` (as URLs write it) → `::1`; names and IPv4 addresses are unchanged. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname
}

/** A literal IPv4 or IPv6 address in any notation the WHATWG URL parser left (it normalises IPv4). */
export function parseAddress(text: string): Address | undefined {
  const bare = bareHost(text)
  if (!ipaddr.isValid(bare)) return undefined
  // `process` turns ::ffff:a.b.c.d into the IPv4 address it carries.
  return ipaddr.process(bare)
}

/** The refused range an address falls in, or undefined when the service may connect to it. */
export function refusedRangeOf(address: string): RefusedRange | undefined {
  const parsed = parseAddress(address)
  // Not an address at all (a resolver answering garbage): nothing to connect to, refuse it.
  if (!parsed) return { cidr: address, name: 'not an IP address' }
  for (const { range, cidr } of PARSED_RANGES) {
    if (parsed.kind() === cidr[0].kind() && parsed.match(cidr)) return range
  }
  return undefined
}

/** Host names refused whatever they resolve to: cloud metadata services and `localhost`. */
export function isRefusedHostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '')
  return REFUSED_HOST_NAMES.includes(name) || name.endsWith('.localhost')
}

/**
 * `OUTBOUND_ALLOW_HOSTS`: comma-separated host names (`api.internal`), wildcard subdomains
 * (`*.corp.example`), addresses (`10.0.0.5`, `::1`) and ranges (`10.1.0.0/16`). A listed host is
 * reached whatever it resolves to; a listed address or range is reached by any name resolving to it.
 */
export class AllowList {
  private readonly names = new Set<string>()
  private readonly suffixes: string[] = []
  private readonly ranges: Cidr[] = []

  static parse(raw: string | undefined): { list: AllowList; problems: string[] } {
    const list = new AllowList()
    const problems: string[] = []
    for (const entry of (raw ?? '')
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter(Boolean)) {
      const problem = list.add(entry)
      if (problem) problems.push(problem)
    }
    return { list, problems }
  }

  allowsHost(hostname: string): boolean {
    const name = bareHost(hostname.toLowerCase()).replace(/\.$/, '')
    if (this.names.has(name)) return true
    if (this.suffixes.some((suffix) => name.endsWith(suffix))) return true
    return parseAddress(name) !== undefined && this.allowsAddress(name)
  }

  allowsAddress(address: string): boolean {
    const parsed = parseAddress(address)
    return parsed !== undefined && this.ranges.some((cidr) => parsed.kind() === cidr[0].kind() && parsed.match(cidr))
  }

  private add(entry: string): string | undefined {
    const bare = bareHost(entry)
    if (bare.includes('/')) {
      if (!ipaddr.isValidCIDR(bare)) return `"${entry}" is not an address range`
      const [address, bits] = ipaddr.parseCIDR(bare)
      const processed = ipaddr.process(address.toString())
      this.ranges.push(processed.kind() === address.kind() ? [address, bits] : [processed, bits - 96])
      return undefined
    }
    const address = parseAddress(bare)
    if (address) {
      this.ranges.push([address, address.kind() === 'ipv4' ? 32 : 128])
      return undefined
    }
    if (entry.startsWith('*.') && HOST_NAME.test(entry.slice(2))) {
      this.suffixes.push(entry.slice(1))
      return undefined
    }
    if (!HOST_NAME.test(entry)) return `"${entry}" is not a host name, address or range`
    this.names.add(entry.replace(/\.$/, ''))
    return undefined
  }
}

const HOST_NAME = /^(?=.{1,253}\.?$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/

/** A URL a flow may call: http or https, with no credentials in it. */
export function parseUrl(text: string): URL {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new OutboundError('invalid-url', `Not a valid URL: ${text.slice(0, 200)}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError('invalid-url', `Only http and https addresses can be called (got ${url.protocol})`)
  }
  if (url.username !== '' || url.password !== '') {
    throw new OutboundError('invalid-url', 'Credentials in the URL are not sent; use an Authorization header')
  }
  return url
}

/**
 * Refuses an address outside the allow list in a refused range. The range is named only for an
 * address the flow wrote itself: what a name resolves to is the operator's to know, and a name
 * resolving to a refused address is told like one resolving to none (noCallableAddress).
 */
export function assertAllowedAddress(host: string, address: string, allow: AllowList): void {
  if (allow.allowsAddress(address)) return
  const range = refusedRangeOf(address)
  if (!range) return
  throw host === address ? refused(host, `${range.name} (${range.cidr})`) : noCallableAddress(host)
}
