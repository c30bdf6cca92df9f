import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { AllowList, refusedRangeOf } from '../../../src/service/outbound/address-policy'
import { createOutboundHttp, OutboundError, type OutboundHttp, type OutboundOptions } from '../../../src/service/outbound/outbound-http'
import { REFUSED_RANGES } from '../../../src/service/outbound/refused-ranges'
import { type HttpTestServer, startHttpTestServer } from '../helpers/http-test-server'
import { captureLogs } from '../helpers/logs'
import { NAME_PROBES, PUBLIC_ADDRESSES, REFUSED_TARGETS } from './fixtures/refused-targets'

let server: HttpTestServer
const clients: OutboundHttp[] = []

beforeAll(async () => {
  server = await startHttpTestServer()
})
afterAll(() => server.close())
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()))
})

/** A client whose DNS answers from `names` (and nothing else): no lookup ever leaves the machine. */
function client(options: { allow?: string; names?: Record<string, string[]> } & Omit<OutboundOptions, 'allow'> = {}): OutboundHttp {
  const { list, problems } = AllowList.parse(options.allow)
  expect(problems).toEqual([])
  const names = options.names ?? {}
  const created = createOutboundHttp({
    ...options,
    allow: list,
    resolve: async (host) => {
      const found = names[host]
      if (!found) throw Object.assign(new Error(`queryA ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
      return found
    },
  })
  clients.push(created)
  return created
}

const at = (url: string) => url.replace('PORT', String(server.port))

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(OutboundError)
  return error as OutboundError
}

const call = (http: OutboundHttp, url: string, extra: Partial<Parameters<OutboundHttp['request']>[0]> = {}) =>
  http.request({ url: at(url), timeoutMs: 5_000, maxResponseBytes: 1024 * 1024, ...extra })

describe('refused addresses', () => {
  it.each(REFUSED_TARGETS.map((target) => [target.trick, target] as const))('refuses %s', async (_trick, target) => {
    const names = target.resolvesTo ? { [new URL(at(target.url)).hostname]: target.resolvesTo } : {}
    const before = server.received.length
    const error = await failure(call(client({ names }), target.url))
    expect(error.failure).toBe('refused')
    expect(server.received.length).toBe(before)
  })

  it('refuses the first address of every range in the list', () => {
    for (const range of REFUSED_RANGES) {
      expect(refusedRangeOf(range.cidr.split('/')[0]!), range.cidr).toBeDefined()
    }
  })

  it('lets public addresses through', () => {
    for (const address of PUBLIC_ADDRESSES) expect(refusedRangeOf(address), address).toBeUndefined()
  })

  it('calls only http and https, without credentials in the URL', async () => {
    const http = client({ allow: '127.0.0.1' })
    for (const url of [
      'file:///etc/passwd',
      'ftp://127.0.0.1/',
      'gopher://127.0.0.1:PORT/',
      'not a url',
      'http://user:pw@127.0.0.1:PORT/echo',
    ]) {
      expect((await failure(call(http, url))).failure, url).toBe('invalid-url')
    }
  })
})

describe('OUTBOUND_ALLOW_HOSTS', () => {
  it('reaches a listed address, host name, wildcard subdomain or range', async () => {
    const names = { 'api.test': ['127.0.0.1'], 'eu.svc.test': ['127.0.0.1'], 'loop.example': ['127.0.0.1'] }
    for (const [allow, url] of [
      ['127.0.0.1', 'http://127.0.0.1:PORT/echo'],
      ['api.test', 'http://api.test:PORT/echo'],
      ['*.svc.test', 'http://eu.svc.test:PORT/echo'],
      ['127.0.0.0/8', 'http://loop.example:PORT/echo'],
      ['::ffff:127.0.0.0/104', 'http://loop.example:PORT/echo'],
      ['API.TEST', 'http://api.test:PORT/echo'],
    ] as const) {
      const response = await call(client({ allow, names }), url)
      expect(response.status, allow).toBe(200)
    }
  })

  it('refuses a name with one address outside the list among listed ones', async () => {
    const before = server.hits('/echo').length
    const http = client({ allow: '127.0.0.1', names: { 'mixed.test': ['127.0.0.1', '10.1.2.3'] } })
    expect((await failure(call(http, 'http://mixed.test:PORT/echo'))).failure).toBe('refused')
    expect(server.hits('/echo').length).toBe(before)
  })

  it('names what it cannot read', () => {
    expect(AllowList.parse('ok.example, bad host, 10.0.0.0/99, *.fine.example').problems).toEqual([
      '"bad host" is not a host name, address or range',
      '"10.0.0.0/99" is not an address range',
    ])
  })

  it('connects to the address it checked, resolving once (no DNS-rebinding gap)', async () => {
    let lookups = 0
    const rebinding = createOutboundHttp({
      allow: AllowList.parse('127.0.0.1').list,
      resolve: async () => (lookups++ === 0 ? ['127.0.0.1'] : ['10.9.9.9']),
    })
    clients.push(rebinding)
    const response = await call(rebinding, 'http://rebind.test:PORT/echo')
    expect(response.status).toBe(200)
    expect(lookups).toBe(1)
    expect(JSON.parse(response.body.toString()).headers.host).toBe(`rebind.test:${server.port}`)
  })
})

describe('redirects', () => {
  const names = { 'api.test': ['127.0.0.1'], 'other.test': ['127.0.0.1'] }
  const redirect = (to: string, status = 302) => `http://api.test:PORT/redirect?status=${status}&to=${encodeURIComponent(at(to))}`

  it('checks every hop: a redirect to loopback or localhost is refused', async () => {
    const http = client({ allow: 'api.test', names })
    for (const target of [
      'http://127.0.0.1:PORT/echo',
      'http://localhost:PORT/echo',
      'http://[::ffff:127.0.0.1]:PORT/echo',
      'http://0x7f000001:PORT/echo',
    ]) {
      const before = server.hits('/echo').length
      expect((await failure(call(http, redirect(target)))).failure, target).toBe('refused')
      expect(server.hits('/echo').length).toBe(before)
    }
  })

  it('follows allowed hops, turning a 303 into a GET', async () => {
    const http = client({ allow: 'api.test, other.test', names })
    const response = await call(http, redirect('http://other.test:PORT/echo', 303), {
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
    })
    const echo = JSON.parse(response.body.toString())
    expect(echo.method).toBe('GET')
    expect(echo.body).toBe('')
    expect(echo.headers.accept).toBe('application/json')
    expect(response.url).toBe(at('http://other.test:PORT/echo'))
  })

  it('sends only CORS-safelisted headers to another origin, every header to the same origin', async () => {
    const http = client({ allow: 'api.test, other.test', names })
    const headers = {
      authorization: 'Bearer secret',
      cookie: 'session=secret',
      'x-api-key': 'secret-key',
      'api-key': 'secret-key',
      'x-custom': 'mine',
      accept: 'application/json',
      'accept-language': 'pl',
      'content-type': 'application/json',
    }
    const across = JSON.parse(
      (await call(http, redirect('http://other.test:PORT/echo', 307), { method: 'PUT', body: '{}', headers })).body.toString(),
    )
    for (const name of ['authorization', 'cookie', 'x-api-key', 'api-key', 'x-custom']) expect(across.headers[name], name).toBeUndefined()
    expect(across.headers).toMatchObject({ accept: 'application/json', 'accept-language': 'pl', 'content-type': 'application/json' })
    expect(across.body).toBe('{}')

    const same = JSON.parse(
      (await call(http, redirect('http://api.test:PORT/echo', 307), { method: 'PUT', body: '{}', headers })).body.toString(),
    )
    expect(same.headers).toMatchObject({ authorization: 'Bearer secret', 'x-api-key': 'secret-key', 'x-custom': 'mine' })
  })

  it('keeps the method and body on a 307', async () => {
    const http = client({ allow: 'api.test', names })
    const response = await call(http, redirect('http://api.test:PORT/echo', 307), { method: 'PUT', body: 'x=1' })
    expect(JSON.parse(response.body.toString())).toMatchObject({ method: 'PUT', body: 'x=1' })
  })

  it('stops after five redirects', async () => {
    const http = client({ allow: 'api.test', names })
    let url = 'http://api.test:PORT/echo'
    for (let i = 0; i < 6; i++) url = redirect(url)
    expect((await failure(call(http, url))).failure).toBe('too-many-redirects')
  })
})

describe('deadline and size cap', () => {
  it('gives up on a server that never answers, or never finishes its body', async () => {
    const http = client({ allow: '127.0.0.1' })
    expect((await failure(call(http, 'http://127.0.0.1:PORT/hang', { timeoutMs: 300 }))).failure).toBe('timeout')
    expect((await failure(call(http, 'http://127.0.0.1:PORT/slow-body', { timeoutMs: 300 }))).failure).toBe('timeout')
  })

  it('stops reading past the cap, declared or not', async () => {
    const http = client({ allow: '127.0.0.1' })
    expect((await failure(call(http, 'http://127.0.0.1:PORT/big?mb=50'))).failure).toBe('too-large')
    expect((await failure(call(http, 'http://127.0.0.1:PORT/big-declared?mb=50'))).failure).toBe('too-large')
    const small = await call(http, 'http://127.0.0.1:PORT/big?mb=1', { maxResponseBytes: 1024 * 1024 })
    expect(small.body.length).toBe(1024 * 1024)
  })

  it('caps a streamed body read through its fetch', async () => {
    const http = client({ allow: '127.0.0.1' })
    const response = await http.fetch(at('http://127.0.0.1:PORT/big?mb=5'), { maxResponseBytes: 100_000 })
    expect(response.status).toBe(200)
    const error = await response.text().then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(OutboundError)
    expect((error as OutboundError).failure).toBe('too-large')
  })

  it('names a refused connection', async () => {
    const http = client({ allow: '127.0.0.1' })
    const closed = await startHttpTestServer()
    await closed.close()
    expect((await failure(call(http, `${closed.origin}/echo`))).failure).toBe('network')
  })
})

describe('what failures say', () => {
  it('never names the address a name resolves to', async () => {
    const closed = await startHttpTestServer()
    await closed.close()
    const http = client({
      allow: 'open.test',
      names: { 'db.internal.test': ['10.20.30.40'], 'metadata.test': ['169.254.169.254'], 'open.test': ['127.0.0.1'] },
    })
    const messages = [
      (await failure(call(http, 'http://db.internal.test:PORT/echo'))).message,
      (await failure(call(http, 'http://metadata.test/latest/meta-data/'))).message,
      // An allowed name on a port where nothing listens: the system's own message names the address.
      (await failure(call(http, `http://open.test:${closed.port}/echo`))).message,
    ]
    expect(messages).toEqual([
      'Refused to connect to db.internal.test: it has no address this service may call',
      'Refused to connect to metadata.test: it has no address this service may call',
      `open.test:${closed.port} refused the connection (ECONNREFUSED)`,
    ])
    for (const message of messages) expect(message).not.toMatch(/10\.20\.30\.40|169\.254|127\.0\.0\.1/)
  })

  it.each(NAME_PROBES)('tells $probes like any name it may not call; the operator log says which', async ({ host, resolvesTo }) => {
    const names = resolvesTo === 'no such name' ? {} : { [host]: resolvesTo }
    const logs = captureLogs()
    try {
      const error = await failure(call(client({ names }), `http://${host}/`))
      expect([error.failure, error.message]).toEqual(['refused', `Refused to connect to ${host}: it has no address this service may call`])
      const line = logs.lines.find((entry) => entry.msg === 'outbound call refused: the name has no address flows may call')
      expect(line).toMatchObject({ host, ...(resolvesTo === 'no such name' ? { code: 'ENOTFOUND' } : {}) })
      if (Array.isArray(resolvesTo) && resolvesTo.length > 0) expect(resolvesTo).toContain(line!.address)
    } finally {
      logs.restore()
    }
  })

  it('names the range of an address the flow wrote itself', async () => {
    expect((await failure(call(client(), 'http://10.1.2.3/'))).message).toBe('Refused to connect to 10.1.2.3: private network (10.0.0.0/8)')
  })

  it('refuses a header value no header can carry without quoting it', async () => {
    const error = await failure(
      call(client({ allow: '127.0.0.1' }), 'http://127.0.0.1:PORT/echo', { headers: { authorization: 'Bearer sk-live-\u0141' } }),
    )
    expect(error.failure).toBe('invalid-request')
    expect(error.message).not.toContain('sk-live')
  })
})

describe('resolveHost (for SMTP and other non-HTTP connections)', () => {
  it('answers a checked address, and refuses what HTTP would refuse', async () => {
    const http = client({ allow: 'mail.test', names: { 'mail.test': ['127.0.0.1'], 'intranet.test': ['10.0.0.2'] } })
    expect(await http.resolveHost('mail.test')).toBe('127.0.0.1')
    expect((await failure(http.resolveHost('intranet.test'))).failure).toBe('refused')
    expect((await failure(http.resolveHost('127.0.0.1'))).failure).toBe('refused')
    expect((await failure(http.resolveHost('nowhere.test'))).failure).toBe('refused')
  })
})
