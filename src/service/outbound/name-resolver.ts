import { Resolver } from 'node:dns/promises'
import { readFile } from 'node:fs/promises'
import { isIP } from 'node:net'

/**
 * Names to addresses for outgoing calls, without `dns.lookup`: that is `getaddrinfo` on libuv's
 * thread pool, which runs two lookups at once for the whole process and cannot stop one, so a
 * tenant's names that never answer stalled every tenant's calls. Here each lookup is a query of
 * its own (c-ares, on the event loop) with its own timeout, cancelled when its caller gives up;
 * answers are kept for their TTL. `localhost` and the hosts file are read as getaddrinfo would.
 */

export interface DnsOptions {
  /** Name servers (`address` or `address:port`); the system's (/etc/resolv.conf) when left out. */
  servers?: readonly string[]
  /** The first try's wait for an answer; each further try waits twice as long as the one before. */
  timeoutMs?: number
  tries?: number
  /** The hosts file (`/etc/hosts`). */
  hostsFile?: string
}

export interface NameResolver {
  /** A name's addresses, IPv4 first. Rejects with an error whose `code` says why (ENOTFOUND, ETIMEOUT, ECANCELLED…). */
  lookup(name: string, signal?: AbortSignal): Promise<string[]>
  close(): void
}

/** About three seconds per name that never answers: 1 s, then 2 s. */
export const DNS_TIMEOUT_MS = 1_000
export const DNS_TRIES = 2
/** How long a name's answer is kept at most, and how long a failure is. */
const MAX_TTL_SECONDS = 300
const FAILURE_TTL_SECONDS = 5
const MAX_CACHED_NAMES = 1_000
/** How often the hosts file is read again. */
const HOSTS_FILE_TTL_MS = 30_000
const LOOPBACK = ['127.0.0.1', '::1']

interface CachedAnswer {
  addresses?: string[]
  code?: string
  expiresAt: number
}

export function createNameResolver(options: DnsOptions = {}): NameResolver {
  const cache = new Map<string, CachedAnswer>()
  const running = new Set<Resolver>()
  const hosts = hostsFileReader(options.hostsFile ?? '/etc/hosts')

  const remember = (name: string, answer: CachedAnswer) => {
    cache.delete(name)
    if (cache.size >= MAX_CACHED_NAMES) cache.delete(cache.keys().next().value!)
    cache.set(name, answer)
  }

  const query = async (name: string, signal: AbortSignal | undefined): Promise<string[]> => {
    const resolver = new Resolver({ timeout: options.timeoutMs ?? DNS_TIMEOUT_MS, tries: options.tries ?? DNS_TRIES })
    if (options.servers && options.servers.length > 0) resolver.setServers([...options.servers])
    const cancel = () => resolver.cancel()
    signal?.addEventListener('abort', cancel, { once: true })
    running.add(resolver)
    try {
      const [v4, v6] = await Promise.allSettled([resolver.resolve4(name, { ttl: true }), resolver.resolve6(name, { ttl: true })])
      const records = [v4, v6].flatMap((outcome) => (outcome.status === 'fulfilled' ? outcome.value : []))
      const failures = [v4, v6].flatMap((outcome) =>
        outcome.status === 'rejected' ? [(outcome.reason as NodeJS.ErrnoException).code ?? 'ENOTFOUND'] : [],
      )
      if (signal?.aborted || failures.includes('ECANCELLED')) throw lookupError('ECANCELLED', name)
      const now = Date.now()
      if (records.length > 0) {
        const ttl = Math.min(MAX_TTL_SECONDS, ...records.map((record) => record.ttl))
        const addresses = records.map((record) => record.address)
        remember(name, { addresses, expiresAt: now + Math.max(1, ttl) * 1000 })
        return addresses
      }
      // A timeout says more than the other family's "no such record".
      const code = failures.find((failure) => failure !== 'ENODATA' && failure !== 'ENOTFOUND') ?? failures[0] ?? 'ENODATA'
      remember(name, { code, expiresAt: now + FAILURE_TTL_SECONDS * 1000 })
      throw lookupError(code, name)
    } finally {
      signal?.removeEventListener('abort', cancel)
      running.delete(resolver)
    }
  }

  return {
    async lookup(rawName, signal) {
      const name = rawName.toLowerCase().replace(/\.$/, '')
      if (isIP(name)) return [name]
      const listed = (await hosts()).get(name)
      if (listed) return listed
      // RFC 6761: localhost names are the machine itself and never asked of a name server.
      if (name === 'localhost' || name.endsWith('.localhost')) return LOOPBACK
      const cached = cache.get(name)
      if (cached && cached.expiresAt > Date.now()) {
        if (cached.addresses) return cached.addresses
        throw lookupError(cached.code ?? 'ENOTFOUND', name)
      }
      if (signal?.aborted) throw lookupError('ECANCELLED', name)
      return query(name, signal)
    },
    close() {
      for (const resolver of running) resolver.cancel()
    },
  }
}

function lookupError(code: string, name: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code} ${name}`), { code, hostname: name })
}

/** Name → addresses from the hosts file, read again at most every 30 s; none when it cannot be read. */
function hostsFileReader(file: string): () => Promise<Map<string, string[]>> {
  let current: { names: Map<string, string[]>; readAt: number } | undefined
  let reading: Promise<Map<string, string[]>> | undefined
  return () => {
    if (current && Date.now() - current.readAt < HOSTS_FILE_TTL_MS) return Promise.resolve(current.names)
    reading ??= readFile(file, 'utf8')
      .then(parseHostsFile, () => new Map<string, string[]>())
      .then((names) => {
        current = { names, readAt: Date.now() }
        reading = undefined
        return names
      })
    return reading
  }
}

/** `address name [aliases…]` lines; `#` starts a comment. IPv4 addresses come first for each name. */
export function parseHostsFile(text: string): Map<string, string[]> {
  const names = new Map<string, string[]>()
  for (const line of text.split('\n')) {
    const [address, ...aliases] = line.replace(/#.*/, '').trim().split(/\s+/)
    if (!address || isIP(address) === 0) continue
    for (const alias of aliases) {
      const name = alias.toLowerCase().replace(/\.$/, '')
      const list = names.get(name) ?? []
      if (!list.includes(address)) list.push(address)
      names.set(name, list)
    }
  }
  for (const list of names.values()) list.sort((a, b) => isIP(a) - isIP(b))
  return names
}
