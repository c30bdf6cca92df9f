import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createNameResolver, type DnsOptions, type NameResolver, parseHostsFile } from '../../../src/service/outbound/name-resolver'
import { type DnsTestServer, startDnsTestServer } from '../helpers/dns-test-server'
import { until } from '../helpers/until'

/** The resolver against real DNS servers on loopback: one that answers, one that never does. */
let dns: DnsTestServer
let shortLived: DnsTestServer
let dir: string
const resolvers: NameResolver[] = []

beforeAll(async () => {
  dns = await startDnsTestServer(
    { 'api.test': ['127.0.0.1', '::1'], 'v6.test': ['::1'] },
    { silent: (name) => name.endsWith('.silent.test') },
  )
  shortLived = await startDnsTestServer({ 'brief.test': ['127.0.0.2'] }, { ttlSeconds: 1 })
  dir = await mkdtemp(join(tmpdir(), 'hosts-'))
})
afterAll(async () => {
  for (const resolver of resolvers) resolver.close()
  await Promise.all([dns.close(), shortLived.close(), rm(dir, { recursive: true, force: true })])
})

function resolver(options: DnsOptions = {}): NameResolver {
  const created = createNameResolver({ servers: [dns.address], timeoutMs: 200, tries: 1, hostsFile: join(dir, 'none'), ...options })
  resolvers.push(created)
  return created
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the lookup should fail'),
    (error: NodeJS.ErrnoException) => error.code,
  )

describe('the outbound name resolver', () => {
  it('asks the name servers it is given, IPv4 first, and keeps the answer', async () => {
    const names = resolver()
    expect(await names.lookup('API.test.')).toEqual(['127.0.0.1', '::1'])
    expect(await names.lookup('v6.test')).toEqual(['::1'])
    const asked = dns.queries.length
    expect(await names.lookup('api.test')).toEqual(['127.0.0.1', '::1'])
    expect(dns.queries.length).toBe(asked)
    expect(await failure(names.lookup('nowhere.test'))).toBe('ENOTFOUND')
  })

  it('asks again once the answer outlived its TTL', async () => {
    const names = resolver({ servers: [shortLived.address] })
    await names.lookup('brief.test')
    await names.lookup('brief.test')
    expect(shortLived.queries.filter((query) => query.type === 'A')).toHaveLength(1)
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    await names.lookup('brief.test')
    expect(shortLived.queries.filter((query) => query.type === 'A')).toHaveLength(2)
  })

  it('gives up on a name server that never answers, and keeps that failure briefly', async () => {
    const names = resolver()
    expect(await failure(names.lookup('a.silent.test'))).toBe('ETIMEOUT')
    const asked = dns.queries.length
    expect(await failure(names.lookup('a.silent.test'))).toBe('ETIMEOUT')
    expect(dns.queries.length).toBe(asked)
  })

  it('stops a lookup when its caller gives up, and keeps nothing of it', async () => {
    const names = resolver({ timeoutMs: 10_000, tries: 4 })
    const controller = new AbortController()
    const lookup = failure(names.lookup('b.silent.test', controller.signal))
    await until(() => dns.namesAsked().includes('b.silent.test'))
    controller.abort()
    expect(await lookup).toBe('ECANCELLED')
    const asked = dns.queries.length
    const again = new AbortController()
    const second = failure(names.lookup('b.silent.test', again.signal))
    await until(() => dns.queries.length > asked)
    again.abort()
    expect(await second).toBe('ECANCELLED')
  })

  it('answers localhost and the hosts file without asking any name server', async () => {
    const hostsFile = join(dir, 'hosts')
    await writeFile(
      hostsFile,
      '# a comment\n10.1.2.3 files.test files # trailing\n::1 files.test\n127.0.0.1 localhost\nnot-an-address x.test\n',
    )
    const names = resolver({ hostsFile })
    const asked = dns.queries.length
    expect(await names.lookup('files.test')).toEqual(['10.1.2.3', '::1'])
    expect(await names.lookup('FILES')).toEqual(['10.1.2.3'])
    expect(await names.lookup('localhost')).toEqual(['127.0.0.1'])
    expect(await resolver().lookup('api.localhost')).toEqual(['127.0.0.1', '::1'])
    expect(dns.queries.length).toBe(asked)
  })

  it('reads hosts files as getaddrinfo does', () => {
    expect(parseHostsFile('::1 both\n127.0.0.1 both BOTH.\n\n# 10.0.0.1 commented\n')).toEqual(new Map([['both', ['127.0.0.1', '::1']]]))
  })
})
