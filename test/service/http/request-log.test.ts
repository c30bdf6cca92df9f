import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { useTestDatabase } from '../helpers/database'
import { greetingFlow, importOverHttp, publishOverHttp } from '../helpers/flows'
import { type CapturedLogs, captureLogs, type LogLine } from '../helpers/logs'
import { createTestService, type TestService, WORKSPACE } from '../helpers/service'
import { HOSTILE_REQUEST_IDS, REQUEST_IDS_KEPT } from './fixtures/request-ids'

/**
 * What an operator reads of a request: JSON lines, one access line per request (method, route
 * pattern, status, duration, client address, error code), and the request's id, returned in
 * `X-Request-Id` and written on every line the request causes, with the id the client sent beside it.
 */
const db = useTestDatabase()
let svc: TestService
let logs: CapturedLogs
beforeEach(async () => {
  svc = await createTestService(db)
  logs = captureLogs()
})
afterEach(async () => {
  logs.restore()
  await svc.close()
})

const SERVICE_ID = /^[A-Za-z0-9_-]{24}$/
const accessLines = () => logs.lines.filter((line) => line.msg === 'request')
/** The lines of the request that was sent with `X-Request-Id: clientRequestId`. */
const linesOf = (clientRequestId: string) => logs.lines.filter((line) => line.clientRequestId === clientRequestId)
const accessLineOf = (requestId: string): LogLine => {
  const found = accessLines().filter((line) => line.requestId === requestId)
  expect(found).toHaveLength(1)
  return found[0]!
}

describe('request ids', () => {
  it('gives each request an id of its own, returns it and writes it on its access line', async () => {
    const first = await svc.call('GET', '/v1/health/live')
    const second = await svc.call('GET', '/v1/health/live')
    const ids = [first, second].map((res) => res.headers.get('x-request-id')!)
    for (const id of ids) expect(id).toMatch(SERVICE_ID)
    expect(ids[0]).not.toBe(ids[1])
    for (const id of ids) expect(accessLineOf(id)).toMatchObject({ route: '/v1/health/live', status: 200 })
  })

  it.each(REQUEST_IDS_KEPT.map((entry) => [entry.kind, entry.value]))(
    'keeps %s sent in X-Request-Id beside its own',
    async (_kind, value) => {
      const res = await svc.call('GET', `/v1/flows/${'unknown'}`, { token: svc.tokens.secret, headers: { 'x-request-id': value } })
      expect(res.status).toBe(404)
      const id = res.headers.get('x-request-id')!
      expect(id).toMatch(SERVICE_ID)
      expect(id).not.toBe(value)
      expect(accessLineOf(id)).toMatchObject({ clientRequestId: value, status: 404, errorCode: 'flow_not_found', workspace: WORKSPACE })
    },
  )

  it("never lets a request pass as another: an earlier request's id sent again names a request of its own", async () => {
    const first = await svc.call('GET', '/v1/health/live')
    const earlier = first.headers.get('x-request-id')!
    const again = await svc.call('GET', '/v1/health/ready', { headers: { 'x-request-id': earlier } })
    const replayed = await svc.call('GET', '/v1/health/ready', { headers: { 'x-request-id': earlier } })
    const ids = [again, replayed].map((res) => res.headers.get('x-request-id')!)
    expect(new Set([earlier, ...ids]).size).toBe(3)
    // The earlier id still names one request, the first; the two that sent it again are told apart.
    expect(accessLineOf(earlier)).toMatchObject({ route: '/v1/health/live' })
    expect(accessLineOf(earlier).clientRequestId).toBeUndefined()
    for (const id of ids) expect(accessLineOf(id)).toMatchObject({ route: '/v1/health/ready', clientRequestId: earlier })
  })

  it.each(HOSTILE_REQUEST_IDS.map((entry) => [entry.tries, entry.value]))(
    'keeps no id sent %s, and writes it nowhere',
    async (_tries, value) => {
      const res = await svc.call('GET', '/v1/health/ready', { headers: { 'x-request-id': value } })
      expect(res.status).toBe(200)
      const id = res.headers.get('x-request-id')!
      expect(id).toMatch(SERVICE_ID)
      expect(accessLineOf(id).clientRequestId).toBeUndefined()
      if (value !== '') expect(logs.text()).not.toContain(value)
    },
  )

  it('is returned on answers of every kind: refused, unmatched, preflight, the widget files', async () => {
    const flow = await importOverHttp(svc, greetingFlow())
    await publishOverHttp(svc, flow.id)
    const answers = [
      await svc.call('GET', `/v1/flows/${flow.id}`),
      await svc.call('GET', '/v1/no/such/route'),
      await svc.call('OPTIONS', `/v1/flows/${flow.id}/startChat`, {
        headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
      }),
      await svc.call('GET', '/widget/v1/flow-chat.js'),
      await svc.call('GET', '/no-such-share-page'),
    ]
    expect(answers.map((res) => res.status)).toEqual([401, 404, 204, 200, 404])
    for (const res of answers) {
      const id = res.headers.get('x-request-id')!
      expect(id).toMatch(SERVICE_ID)
      accessLineOf(id)
    }
  })

  it('is on every line a request causes, with its workspace: a fault answered 500', async () => {
    const flow = await importOverHttp(svc, greetingFlow())
    await svc.store.database.query(`DROP TABLE ${svc.store.tables.flows} CASCADE`)
    const res = await svc.call('GET', `/v1/flows/${flow.id}`, { token: svc.tokens.secret, headers: { 'x-request-id': 'fault-0000000001' } })
    expect(res.status).toBe(500)
    const lines = linesOf('fault-0000000001')
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      ['error', 'request failed'],
      ['info', 'request'],
    ])
    for (const line of lines) expect(line.workspace).toBe(WORKSPACE)
    expect(lines[1]).toMatchObject({ status: 500, errorCode: 'internal' })
    // An error is its type, code, message and digest; its stack stays out of the log.
    expect(lines[0]!.err).toEqual({
      type: expect.any(String),
      code: '42P01',
      message: expect.stringMatching(/flows/),
      digest: expect.stringMatching(/^[0-9a-f]{12}$/),
    })
    expect(logs.text()).not.toMatch(/\s+at .+\.ts:\d+/)
    // Nor what the request carried in its Authorization header.
    expect(logs.text()).not.toContain(svc.tokens.secret)
  })

  it("is on the lines a flow's step writes, through what the engine is given", async () => {
    const flow = await importOverHttp(svc, loopingFlow())
    await publishOverHttp(svc, flow.id)
    const start = await svc.call('POST', `/v1/flows/${flow.id}/startChat`)
    const res = await svc.call('POST', `/v1/sessions/${start.body.sessionId}/continueChat`, {
      json: { message: 'y'.repeat(4_000) },
      headers: { 'x-request-id': 'budget-0000000001' },
    })
    expect(res.status).toBe(200)
    const lines = linesOf('budget-0000000001')
    expect(lines.map((line) => line.level)).toEqual(['warn', 'info'])
    expect(lines[0]).toMatchObject({ workspace: WORKSPACE, flowId: flow.id, msg: expect.stringMatching(/went over its response budget/) })
    expect(lines[1]).toMatchObject({ workspace: WORKSPACE, route: '/v1/sessions/:sessionId/continueChat', status: 200 })
  })
})

describe('the access log', () => {
  it('writes one JSON line per request: method, route pattern, status, duration, client address, error code', async () => {
    const flow = await importOverHttp(svc, greetingFlow())
    await publishOverHttp(svc, flow.id)
    const start = await svc.call('POST', `/v1/flows/${flow.id}/startChat`, { headers: { 'x-forwarded-for': '198.51.100.23' } })
    const { sessionId } = start.body
    const answered = await svc.call('POST', `/v1/sessions/${sessionId}/continueChat`, {
      json: { message: 'Ada' },
      headers: { 'x-forwarded-for': '198.51.100.23' },
    })
    const refused = await svc.call('POST', `/v1/sessions/${sessionId}/continueChat`, {
      json: {},
      headers: { 'x-forwarded-for': '198.51.100.23' },
    })
    expect([start.status, answered.status, refused.status]).toEqual([200, 200, 400])

    const requests = [start, answered, refused].map((res) => accessLineOf(res.headers.get('x-request-id')!))
    expect(requests).toEqual([
      expect.objectContaining({
        level: 'info',
        method: 'POST',
        route: '/v1/flows/:flowId/startChat',
        status: 200,
        client: '198.51.100.23',
        workspace: WORKSPACE,
      }),
      expect.objectContaining({
        level: 'info',
        method: 'POST',
        route: '/v1/sessions/:sessionId/continueChat',
        status: 200,
        client: '198.51.100.23',
        workspace: WORKSPACE,
      }),
      expect.objectContaining({
        level: 'info',
        method: 'POST',
        route: '/v1/sessions/:sessionId/continueChat',
        status: 400,
        errorCode: 'invalid_body',
      }),
    ])
    for (const line of requests) {
      expect(new Date(line.time).toISOString()).toBe(line.time)
      expect(line.durationMs).toBeGreaterThanOrEqual(0)
      expect(line).not.toHaveProperty('errorCode', undefined)
    }
    expect(requests[0]).not.toHaveProperty('errorCode')
    // Paths are never written: a session id is a visitor's key to their conversation.
    expect(logs.text()).not.toContain(sessionId)
  })

  it('writes probes answered well at debug, so a load balancer does not fill the log', async () => {
    const ids = [await svc.call('GET', '/v1/health'), await svc.call('GET', '/v1/health/live'), await svc.call('GET', '/v1/flows/x')].map(
      (res) => res.headers.get('x-request-id')!,
    )
    expect(ids.map((id) => accessLineOf(id).level)).toEqual(['debug', 'debug', 'info'])
  })

  it('names an unmatched route as such, whatever its path', async () => {
    const res = await svc.call('DELETE', '/v1/sessions/s3cr3t-session/continueChat')
    expect(res.status).toBe(404)
    expect(accessLineOf(res.headers.get('x-request-id')!)).toMatchObject({
      method: 'DELETE',
      route: 'unmatched',
      status: 404,
      errorCode: 'not_found',
    })
    expect(logs.text()).not.toContain('s3cr3t-session')
  })
})

/** An answer shown over and over: the step goes over its response budget. */
function loopingFlow() {
  const bubble = { id: 'show', type: 'text', content: { richText: [{ type: 'p', children: [{ text: '{{Big}}' }] }] } }
  return {
    version: '6',
    name: 'Looping',
    events: [{ id: 'ev', type: 'start', outgoingEdgeId: 'e0', graphCoordinates: { x: 0, y: 0 } }],
    variables: [{ id: 'vBig', name: 'Big' }],
    groups: [
      { id: 'ask', title: 'Ask', blocks: [{ id: 'q', type: 'text input', outgoingEdgeId: 'e1', options: { variableId: 'vBig' } }] },
      { id: 'loop', title: 'Loop', blocks: [bubble, { id: 'again', type: 'Jump', options: { groupId: 'loop', blockId: 'show' } }] },
    ],
    edges: [
      { id: 'e0', from: { eventId: 'ev' }, to: { groupId: 'ask' } },
      { id: 'e1', from: { blockId: 'q' }, to: { groupId: 'loop' } },
    ],
  }
}
