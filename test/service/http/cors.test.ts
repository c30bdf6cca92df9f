import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { errorBodySchema } from '../../../src/protocol/index'
import { isOriginAllowed, normalizeOrigin } from '../../../src/service/http/cors'
import { useTestDatabase } from '../helpers/database'
import { greetingFlow, importOverHttp, publishOverHttp } from '../helpers/flows'
import { createTestService, type TestService } from '../helpers/service'
import { snapshotTables } from '../helpers/snapshot'

const SHOP = 'https://shop.example'
const EVIL = 'https://evil.example'

const db = useTestDatabase()
let svc: TestService
beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(() => svc.close())

async function publishedFlow(allowedOrigins: string[]) {
  const flow = await importOverHttp(svc, greetingFlow({ settings: { security: { allowedOrigins } } }))
  await publishOverHttp(svc, flow.id)
  return flow
}

const startFrom = (flowId: string, origin?: string) =>
  svc.call('POST', `/v1/flows/${flowId}/startChat`, { json: {}, headers: origin ? { origin } : {} })
const answerFrom = (sessionId: string, origin: string) =>
  svc.call('POST', `/v1/sessions/${sessionId}/continueChat`, { json: { message: 'Ada' }, headers: { origin } })
const preflight = (path: string, origin: string, headers = 'content-type') =>
  svc.call('OPTIONS', path, {
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': headers },
  })

function expectError(res: { status: number; body: unknown }, status: number, code: string) {
  expect(res.status).toBe(status)
  expect(errorBodySchema.parse(res.body).error.code).toBe(code)
}

describe('allowedOrigins on chat operations', () => {
  it('refuses startChat from an origin not listed, without CORS headers and without a session', async () => {
    const flow = await publishedFlow([SHOP])
    const before = await snapshotTables(svc.store)
    const res = await startFrom(flow.id, EVIL)
    expectError(res, 403, 'origin_not_allowed')
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    expect(await snapshotTables(svc.store)).toBe(before)
  })

  it('names a listed origin in the CORS headers, however it is spelled', async () => {
    const flow = await publishedFlow([`${SHOP}/`])
    for (const origin of [SHOP, 'https://SHOP.example:443']) {
      const res = await startFrom(flow.id, origin)
      expect(res.status).toBe(200)
      expect(res.headers.get('access-control-allow-origin')).toBe(origin)
      expect(res.headers.get('vary')).toMatch(/Origin/)
    }
  })

  it('lets requests without an Origin through (server to server)', async () => {
    const flow = await publishedFlow([SHOP])
    const res = await startFrom(flow.id)
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('refuses continueChat from an origin not listed and leaves the session as it was', async () => {
    const flow = await publishedFlow([SHOP])
    const { sessionId } = (await startFrom(flow.id, SHOP)).body
    const before = await snapshotTables(svc.store)
    expectError(await answerFrom(sessionId, EVIL), 403, 'origin_not_allowed')
    expect(await snapshotTables(svc.store)).toBe(before)
    const ok = await answerFrom(sessionId, SHOP)
    expect(ok.status).toBe(200)
    expect(ok.headers.get('access-control-allow-origin')).toBe(SHOP)
  })

  it('allows every origin when the list is empty', async () => {
    const flow = await publishedFlow([])
    const res = await startFrom(flow.id, EVIL)
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBe(EVIL)
  })

  it('applies a re-published list to running sessions', async () => {
    const flow = await publishedFlow([])
    const { sessionId } = (await startFrom(flow.id, EVIL)).body
    await svc.call('PATCH', `/v1/flows/${flow.id}`, {
      token: svc.tokens.secret,
      json: { flow: { settings: { security: { allowedOrigins: [SHOP] } } } },
    })
    expect((await answerFrom(sessionId, EVIL)).status).toBe(200) // not published yet
    await publishOverHttp(svc, flow.id)
    expectError(await answerFrom(sessionId, EVIL), 403, 'origin_not_allowed')
  })

  it('keeps CORS headers on error responses the page may read', async () => {
    const flow = await publishedFlow([SHOP])
    await svc.call('PATCH', `/v1/flows/${flow.id}`, { token: svc.tokens.secret, json: { flow: { isClosed: true } } })
    const closed = await startFrom(flow.id, SHOP)
    expectError(closed, 410, 'flow_closed')
    expect(closed.headers.get('access-control-allow-origin')).toBe(SHOP)
  })
})

describe('preflights', () => {
  it('answers chat preflights for allowed origins with the headers the widget sends', async () => {
    const flow = await publishedFlow([SHOP])
    const { sessionId } = (await startFrom(flow.id, SHOP)).body
    for (const path of [`/v1/flows/${flow.publicId}/startChat`, `/v1/sessions/${sessionId}/continueChat`]) {
      const res = await preflight(path, SHOP, 'content-type, idempotency-key')
      expect(res.status).toBe(204)
      expect(res.headers.get('access-control-allow-origin')).toBe(SHOP)
      expect(res.headers.get('access-control-allow-methods')).toMatch(/POST/)
      expect(res.headers.get('access-control-allow-headers')).toMatch(/Content-Type/)
      expect(res.headers.get('access-control-allow-headers')).toMatch(/Idempotency-Key/)
      expect(res.headers.get('access-control-max-age')).toBe('600')

      const refused = await preflight(path, EVIL)
      expectError(refused, 403, 'origin_not_allowed')
      expect(refused.headers.get('access-control-allow-origin')).toBeNull()
    }
  })

  it('lets the real request report unknown flows and sessions', async () => {
    for (const path of ['/v1/flows/unknown/startChat', '/v1/sessions/unknown/continueChat']) {
      const res = await preflight(path, EVIL)
      expect(res.status).toBe(204)
      expect(res.headers.get('access-control-allow-origin')).toBe(EVIL)
    }
    const res = await svc.call('POST', '/v1/sessions/unknown/continueChat', {
      json: { message: 'x' },
      headers: { origin: EVIL },
    })
    expectError(res, 404, 'session_not_found')
    expect(res.headers.get('access-control-allow-origin')).toBe(EVIL)
  })

  it('opens publishedFlow to every origin, with the Authorization header', async () => {
    const flow = await publishedFlow([SHOP])
    const pre = await svc.call('OPTIONS', `/v1/flows/${flow.id}/publishedFlow`, {
      headers: { origin: EVIL, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    })
    expect(pre.status).toBe(204)
    expect(pre.headers.get('access-control-allow-origin')).toBe('*')
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/Authorization/)
    const get = await svc.call('GET', `/v1/flows/${flow.id}/publishedFlow`, {
      token: svc.tokens.publishable,
      headers: { origin: EVIL },
    })
    expect(get.status).toBe(200)
    expect(get.headers.get('access-control-allow-origin')).toBe('*')
    const denied = await svc.call('GET', `/v1/flows/${flow.id}/publishedFlow`, { headers: { origin: EVIL } })
    expect(denied.status).toBe(401)
    expect(denied.headers.get('access-control-allow-origin')).toBe('*')
  })

  it('gives management operations no CORS at all', async () => {
    const flow = await publishedFlow([])
    const pre = await svc.call('OPTIONS', '/v1/flows/import', {
      headers: { origin: SHOP, 'access-control-request-method': 'POST' },
    })
    expect(pre.status).toBe(404)
    expect(pre.headers.get('access-control-allow-origin')).toBeNull()
    const get = await svc.call('GET', `/v1/flows/${flow.id}`, { token: svc.tokens.secret, headers: { origin: SHOP } })
    expect(get.status).toBe(200)
    expect(get.headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe('origin matching', () => {
  it('normalises scheme, host case, default port and trailing slash', () => {
    expect(normalizeOrigin('HTTPS://Shop.Example:443/')).toBe(SHOP)
    expect(normalizeOrigin('http://localhost:5173')).toBe('http://localhost:5173')
    expect(normalizeOrigin('null')).toBe('null')
  })

  it('matches exactly, never by prefix or suffix', () => {
    expect(isOriginAllowed('https://shop.example.evil.test', [SHOP])).toBe(false)
    expect(isOriginAllowed('http://shop.example', [SHOP])).toBe(false)
    expect(isOriginAllowed('https://shop.example:8443', [SHOP])).toBe(false)
    expect(isOriginAllowed('null', [SHOP])).toBe(false)
    expect(isOriginAllowed(SHOP, [SHOP])).toBe(true)
    expect(isOriginAllowed('anything', [])).toBe(true)
  })
})
