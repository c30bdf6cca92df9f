import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { AllowList } from '../../../src/service/outbound/address-policy'
import {
  createOutboundHttp,
  type OutboundCalls,
  OutboundError,
  type OutboundHttp,
  type OutboundOptions,
} from '../../../src/service/outbound/outbound-http'
import { type DnsTestServer, startDnsTestServer } from '../helpers/dns-test-server'
import { type HttpTestServer, startHttpTestServer } from '../helpers/http-test-server'
import { until } from '../helpers/until'

/**
 * One workspace's slow or silent targets hold its own slots only: real DNS and HTTP servers on
 * loopback, the guard resolving names through the DNS server (which never answers `*.silent.test`).
 */
let server: HttpTestServer
let dns: DnsTestServer
const clients: OutboundHttp[] = []

beforeAll(async () => {
  server = await startHttpTestServer()
  dns = await startDnsTestServer({ 'api.test': ['127.0.0.1'] }, { silent: (name) => name.endsWith('.silent.test') })
})
afterAll(() => Promise.all([server.close(), dns.close()]))
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
})

/** The resolver itself waits 5 s, then 10 s, for a silent name: the calls give up first. */
function client(options: Omit<OutboundOptions, 'allow' | 'dns'> = {}): OutboundHttp {
  const created = createOutboundHttp({
    allow: AllowList.parse('127.0.0.1').list,
    dns: { servers: [dns.address], timeoutMs: 5_000 },
    ...options,
  })
  clients.push(created)
  return created
}

const get = (http: OutboundCalls, url: string, timeoutMs = 5_000) =>
  http.request({ url: url.replace('PORT', String(server.port)), timeoutMs, maxResponseBytes: 1024 * 1024 })

const outcome = (promise: Promise<{ status: number }>) =>
  promise.then(
    (response) => response.status,
    (error: unknown) => (error instanceof OutboundError ? error.failure : 'thrown'),
  )

describe('name lookups per workspace', () => {
  it('a workspace whose names never answer waits on its own lookups; another workspace calls on', async () => {
    const http = client({ limits: { workspaceLookups: 2 } })
    const stalled = [1, 2, 3, 4].map((n) => outcome(get(http.forWorkspace('a'), `http://n${n}.silent.test:PORT/echo`, 3_000)))
    // Two lookups run (its two slots); the other two wait for a slot.
    await until(() => dns.namesAsked().filter((name) => name.endsWith('.silent.test')).length >= 2)
    let settled = false
    void Promise.all(stalled).then(() => (settled = true))

    expect(await outcome(get(http.forWorkspace('b'), 'http://api.test:PORT/echo'))).toBe(200)
    expect(settled).toBe(false)
    expect(dns.namesAsked().filter((name) => name.endsWith('.silent.test'))).toHaveLength(2)
    expect(await Promise.all(stalled)).toEqual(['timeout', 'timeout', 'timeout', 'timeout'])
  })

  it('a call that gives up stops its lookup and frees its slot at once', async () => {
    const http = client({ limits: { workspaceLookups: 1 } })
    // The resolver alone would wait 15 s for this name; the call gives up after 0.3 s.
    const givingUp = outcome(get(http.forWorkspace('a'), 'http://gone.silent.test:PORT/echo', 300))
    await until(() => dns.namesAsked().includes('gone.silent.test'))
    // Waits for the workspace's one lookup slot, which must be free well before this call's 2 s.
    const next = outcome(get(http.forWorkspace('a'), 'http://api.test:PORT/echo', 2_000))
    expect(await Promise.all([givingUp, next])).toEqual(['timeout', 200])
  })
})

describe('calls per workspace and per step', () => {
  it('a workspace has at most its number of calls open; another workspace is not held up', async () => {
    const http = client({ limits: { workspaceCalls: 2 } })
    const before = server.hits('/hang').length
    const hanging = [1, 2, 3].map(() => outcome(get(http.forWorkspace('a'), 'http://127.0.0.1:PORT/hang', 2_000)))
    await until(() => server.hits('/hang').length - before >= 2)
    expect(await outcome(get(http.forWorkspace('b'), 'http://127.0.0.1:PORT/echo'))).toBe(200)
    expect(server.hits('/hang').length - before).toBe(2)
    expect(await Promise.all(hanging)).toEqual(['timeout', 'timeout', 'timeout'])
  })

  it('a step makes at most its number of calls, failing the others without sending them', async () => {
    const http = client({ limits: { callsPerStep: 3 } })
    const step = http.forStep('a')
    const before = server.hits('/echo').length
    const results = []
    for (let i = 0; i < 5; i++) results.push(await outcome(get(step, 'http://127.0.0.1:PORT/echo')))
    expect(results).toEqual([200, 200, 200, 'limit', 'limit'])
    expect(server.hits('/echo').length - before).toBe(3)
    // The next step starts afresh.
    expect(await outcome(get(http.forStep('a'), 'http://127.0.0.1:PORT/echo'))).toBe(200)
  })
})
