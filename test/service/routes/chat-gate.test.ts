import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { errorBodySchema } from '../../../src/protocol/index'
import { uploadPath } from '../../../src/protocol/uploads'
import { useTestDatabase } from '../helpers/database'
import { greetingFlow, importOverHttp, publishOverHttp } from '../helpers/flows'
import { type CapturedLogs, captureLogs } from '../helpers/logs'
import { createTestService, TEST_CONFIG, type TestService, WORKSPACE } from '../helpers/service'

/**
 * The visitor gate: every chat route without a token rules on a request the same way, in the same
 * order (the origin, the rate limit, existence), and names the flow's workspace on the request's
 * log lines. One row per route; a new visitor route joins the table.
 */
interface VisitorRoute {
  name: string
  method: string
  /** The path for a flow id and a session id. */
  path: (ids: { flowId: string; sessionId: string }) => string
  json?: unknown
  raw?: string
  /** The 404's code for a name nothing has. */
  unknown: 'flow_not_found' | 'session_not_found'
}

const ROUTES: VisitorRoute[] = [
  { name: 'startChat', method: 'POST', path: ({ flowId }) => `/v1/flows/${flowId}/startChat`, unknown: 'flow_not_found' },
  {
    name: 'continueChat',
    method: 'POST',
    path: ({ sessionId }) => `/v1/sessions/${sessionId}/continueChat`,
    json: { message: 'Ada' },
    unknown: 'session_not_found',
  },
  {
    name: 'streamMessage',
    method: 'POST',
    path: ({ sessionId }) => `/v1/sessions/${sessionId}/streamMessage`,
    json: {},
    unknown: 'session_not_found',
  },
  {
    name: 'an upload',
    method: 'POST',
    path: ({ sessionId }) => `${uploadPath(sessionId)}?name=notes.txt`,
    raw: 'some notes',
    unknown: 'session_not_found',
  },
  {
    name: 'listenForWebhook',
    method: 'GET',
    path: ({ sessionId }) => `/v1/sessions/${sessionId}/listenForWebhook?waitId=w1234567&timeoutSeconds=0`,
    unknown: 'session_not_found',
  },
]

const ALLOWED = 'https://shop.example'
const UNKNOWN = { flowId: 'no-such-flow-0000', sessionId: 'no-such-session-0000' }

const db = useTestDatabase()
let svc: TestService
let logs: CapturedLogs
let ids: { flowId: string; sessionId: string }
beforeEach(async () => {
  svc = await createTestService(db, { config: { rateLimits: { ...TEST_CONFIG.rateLimits, chat: { perMinute: 1, burst: 1 } } } })
  logs = captureLogs()
  const flow = await importOverHttp(svc, greetingFlow({ settings: { security: { allowedOrigins: [ALLOWED] } } }))
  await publishOverHttp(svc, flow.id)
  const started = await svc.call('POST', `/v1/flows/${flow.id}/startChat`, { headers: visitor('203.0.113.1') })
  ids = { flowId: flow.id, sessionId: started.body.sessionId }
})
afterEach(async () => {
  logs.restore()
  await svc.close()
})

/** A page's visitor: the address one trusted proxy saw, and the page's origin. */
const visitor = (address: string, origin = ALLOWED) => ({ 'x-forwarded-for': `10.9.9.9, ${address}`, origin })

const send = (route: VisitorRoute, at: { flowId: string; sessionId: string }, headers: Record<string, string>) =>
  svc.call(route.method, route.path(at), {
    headers: { ...headers, ...(route.raw === undefined ? {} : { 'content-type': 'text/plain' }) },
    ...(route.json === undefined ? {} : { json: route.json }),
    ...(route.raw === undefined ? {} : { raw: route.raw }),
  })

const codeOf = (body: unknown) => errorBodySchema.parse(body).error.code

describe.each(ROUTES)('the gate of $name', (route) => {
  it('refuses an origin the flow does not allow first, and tells it nothing more', async () => {
    const refused = await send(route, ids, visitor('203.0.113.2', 'https://elsewhere.example'))
    expect(refused.status).toBe(403)
    expect(codeOf(refused.body)).toBe('origin_not_allowed')
    expect(refused.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('answers 429 past the rate limit, before existence, with CORS headers the widget can read', async () => {
    await send(route, UNKNOWN, visitor('203.0.113.3'))
    const limited = await send(route, UNKNOWN, visitor('203.0.113.3'))
    expect(limited.status).toBe(429)
    expect(codeOf(limited.body)).toBe('rate_limited')
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(limited.headers.get('access-control-allow-origin')).toBe(ALLOWED)
  })

  it('answers 404 for a name nothing has, readable by the page', async () => {
    const missing = await send(route, UNKNOWN, visitor('203.0.113.4'))
    expect(missing.status).toBe(404)
    expect(codeOf(missing.body)).toBe(route.unknown)
    expect(missing.headers.get('access-control-allow-origin')).toBe(ALLOWED)
  })

  it("names the flow's workspace on the request's access line", async () => {
    const admitted = await send(route, ids, visitor('203.0.113.5'))
    expect(admitted.headers.get('access-control-allow-origin')).toBe(ALLOWED)
    const id = admitted.headers.get('x-request-id')
    const line = logs.lines.find((entry) => entry.msg === 'request' && entry.requestId === id)
    expect(line).toMatchObject({ workspace: WORKSPACE, status: admitted.status })
  })
})
