import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { errorBodySchema } from '../../../src/protocol/index'
import { BAD_BODIES, type Target } from '../fixtures/bad-bodies'
import { useTestDatabase } from '../helpers/database'
import { greetingFlow, importOverHttp, publishOverHttp } from '../helpers/flows'
import { createTestService, type TestService } from '../helpers/service'
import { snapshotTables } from '../helpers/snapshot'

const db = useTestDatabase()
let svc: TestService
let flowId: string
let sessionId: string
beforeEach(async () => {
  svc = await createTestService(db)
  flowId = (await importOverHttp(svc, greetingFlow())).id
  await publishOverHttp(svc, flowId)
  sessionId = (await svc.call('POST', `/v1/flows/${flowId}/startChat`)).body.sessionId
})
afterEach(() => svc.close())

function request(target: Target): { method: string; path: string; token?: string } {
  switch (target) {
    case 'import':
      return { method: 'POST', path: '/v1/flows/import', token: svc.tokens.secret }
    case 'update':
      return { method: 'PATCH', path: `/v1/flows/${flowId}`, token: svc.tokens.secret }
    case 'startChat':
      return { method: 'POST', path: `/v1/flows/${flowId}/startChat` }
    case 'continueChat':
      return { method: 'POST', path: `/v1/sessions/${sessionId}/continueChat` }
  }
}

function expectError(res: { status: number; body: unknown }, status: number, code: string) {
  expect(res.status).toBe(status)
  expect(errorBodySchema.parse(res.body).error.code).toBe(code)
}

describe('bad bodies', () => {
  it.each(BAD_BODIES.map((c) => [`${c.target}: ${c.tries}`, c] as const))('%s → 4xx, nothing stored', async (_name, badBody) => {
    const before = await snapshotTables(svc.store)
    const { method, path, token } = request(badBody.target)
    const res = await svc.call(method, path, {
      token,
      ...(badBody.raw !== undefined ? { raw: badBody.raw, headers: { 'content-type': 'application/json' } } : { json: badBody.json }),
    })
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
    errorBodySchema.parse(res.body)
    expect(await snapshotTables(svc.store)).toBe(before)
  })

  it('reports readable issues for a wrong shape', async () => {
    const res = await svc.call('POST', `/v1/sessions/${sessionId}/continueChat`, { json: { message: 42 } })
    expectError(res, 400, 'invalid_body')
    expect(res.body.error.details).toEqual([{ path: 'message', message: expect.any(String) }])
  })

  it('explains malformed JSON', async () => {
    const res = await svc.call('POST', `/v1/sessions/${sessionId}/continueChat`, {
      raw: '{"message": "a",}',
      headers: { 'content-type': 'application/json' },
    })
    expectError(res, 400, 'invalid_body')
    expect(res.body.error.message).toMatch(/not valid JSON/)
    expect(res.body.error.details[0].message).toEqual(expect.any(String))
  })

  it('refuses bytes that are not UTF-8', async () => {
    const res = await svc.call('POST', `/v1/sessions/${sessionId}/continueChat`, {
      raw: new Uint8Array([0x7b, 0x22, 0x6d, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      headers: { 'content-type': 'application/json' },
    })
    expectError(res, 400, 'invalid_body')
  })
})

describe('413 payload_too_large', () => {
  const bigFlow = () => ({ ...greetingFlow(), padding: 'x'.repeat(3 * 1024 * 1024) })

  it('refuses a management body over 2 MiB', async () => {
    const before = await snapshotTables(svc.store)
    const res = await svc.call('POST', '/v1/flows/import', {
      token: svc.tokens.secret,
      json: { workspaceId: 'demo', flow: bigFlow() },
    })
    expectError(res, 413, 'payload_too_large')
    expect(await snapshotTables(svc.store)).toBe(before)
  })

  it('refuses a chat body over 64 KiB', async () => {
    const res = await svc.call('POST', `/v1/sessions/${sessionId}/continueChat`, {
      json: { message: 'hi', padding: 'x'.repeat(70 * 1024) },
    })
    expectError(res, 413, 'payload_too_large')
  })

  it('counts the bytes actually sent when there is no Content-Length', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024))
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode('{"message":"'))
        if (sent++ < 10) controller.enqueue(chunk)
        else controller.close()
      },
    })
    const res = await svc.app.request(
      new Request(`http://localhost/v1/sessions/${sessionId}/continueChat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    )
    expectError({ status: res.status, body: await res.json() }, 413, 'payload_too_large')
  })

  it('accepts a body just under the limit', async () => {
    const res = await svc.call('POST', '/v1/flows/import', {
      token: svc.tokens.secret,
      json: { workspaceId: 'demo', flow: { ...greetingFlow(), padding: 'x'.repeat(1024 * 1024) } },
    })
    expect(res.status).toBe(200)
  })
})

describe('415 unsupported_media_type', () => {
  it.each([
    ['text/plain', '{"message":"hi"}'],
    ['application/x-www-form-urlencoded', 'message=hi'],
    ['multipart/form-data; boundary=x', '--x\r\n\r\nhi\r\n--x--'],
  ])('refuses %s', async (contentType, raw) => {
    const res = await svc.call('POST', `/v1/sessions/${sessionId}/continueChat`, {
      raw,
      headers: { 'content-type': contentType },
    })
    expectError(res, 415, 'unsupported_media_type')
  })

  it('refuses a body without a Content-Type on every body-taking operation', async () => {
    // Bytes, not a string: a string body would get text/plain from fetch.
    const bytes = new TextEncoder().encode('{"message":"hi"}')
    for (const target of ['import', 'update', 'startChat', 'continueChat'] as const) {
      const { method, path, token } = request(target)
      const res = await svc.call(method, path, { token, raw: bytes })
      expect(res.status, target).toBe(415)
      expect(res.body.error.code).toBe('unsupported_media_type')
    }
  })

  it('accepts JSON with parameters and structured +json types', async () => {
    for (const contentType of ['application/json; charset=utf-8', 'Application/JSON', 'application/vnd.flow+json']) {
      const res = await svc.call('POST', `/v1/sessions/${sessionId}/continueChat`, {
        raw: JSON.stringify({ message: 'Ada' }),
        headers: { 'content-type': contentType, 'idempotency-key': 'same-answer' },
      })
      expect(res.status).toBe(200)
    }
  })

  it('lets startChat go without any body', async () => {
    const res = await svc.call('POST', `/v1/flows/${flowId}/startChat`)
    expect(res.status).toBe(200)
  })
})
