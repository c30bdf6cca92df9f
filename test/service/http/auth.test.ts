import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { errorBodySchema } from '../../../src/protocol/index'
import { useTestDatabase } from '../helpers/database'
import { greetingFlow, importOverHttp, publishOverHttp } from '../helpers/flows'
import { createTestService, type TestService, WORKSPACE } from '../helpers/service'

const db = useTestDatabase()
let svc: TestService
let flow: Record<string, any>
beforeEach(async () => {
  svc = await createTestService(db)
  flow = await importOverHttp(svc, greetingFlow())
  await publishOverHttp(svc, flow.id)
})
afterEach(() => svc.close())

interface Operation {
  name: string
  method: string
  path: () => string
  json?: () => unknown
}

const management: Operation[] = [
  {
    name: 'import',
    method: 'POST',
    path: () => '/v1/flows/import',
    json: () => ({ workspaceId: WORKSPACE, flow: greetingFlow() }),
  },
  { name: 'get', method: 'GET', path: () => `/v1/flows/${flow.id}` },
  { name: 'update', method: 'PATCH', path: () => `/v1/flows/${flow.id}`, json: () => ({ flow: { name: 'Hijacked' } }) },
  { name: 'publish', method: 'POST', path: () => `/v1/flows/${flow.id}/publish` },
]
const publishedFlow: Operation = {
  name: 'publishedFlow',
  method: 'GET',
  path: () => `/v1/flows/${flow.id}/publishedFlow`,
}

async function send(op: Operation, headers: Record<string, string>) {
  return svc.call(op.method, op.path(), { headers, ...(op.json ? { json: op.json() } : {}) })
}

function expectError(res: { status: number; body: unknown }, status: number, code: string) {
  expect(res.status).toBe(status)
  expect(errorBodySchema.parse(res.body).error.code).toBe(code)
}

/** Nothing a refused call sent may have changed the flow or created one. */
async function expectUnchanged() {
  const flows = await svc.store.flows.listByWorkspace()
  expect(flows).toHaveLength(1)
  expect(flows[0]?.content.name).toBe('Greeting')
}

describe.each([...management, publishedFlow])('$name', (op) => {
  it('answers 401 without a token', async () => {
    const res = await send(op, {})
    expectError(res, 401, 'unauthorized')
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/)
    await expectUnchanged()
  })

  it.each([
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a bare token', `fs_sk_${'a'.repeat(43)}`],
    ['a token of the wrong format', 'Bearer sk_live_123'],
    ['an empty bearer', 'Bearer '],
  ])('answers 401 for %s', async (_name, authorization) => {
    expectError(await send(op, { authorization }), 401, 'unauthorized')
    await expectUnchanged()
  })

  it('answers 401 for a well-formed token that was never issued', async () => {
    for (const prefix of ['fs_sk_', 'fs_pk_']) {
      expectError(await send(op, { authorization: `Bearer ${prefix}${'A'.repeat(43)}` }), 401, 'unauthorized')
    }
    await expectUnchanged()
  })

  it("answers another workspace's secret token as if the flow did not exist", async () => {
    const res = await send(op, { authorization: `Bearer ${svc.tokens.otherSecret}` })
    if (op.name === 'import') {
      expectError(res, 403, 'forbidden') // the body names a workspace that is not the token's
    } else {
      expectError(res, 404, 'flow_not_found')
      const unknown = await svc.call(op.method, op.path().replace(flow.id, 'NoSuchFlowId'), {
        token: svc.tokens.secret,
        ...(op.json ? { json: op.json() } : {}),
      })
      expect(res.body.error.message).toBe(unknown.body.error.message.replace('NoSuchFlowId', flow.id))
    }
    await expectUnchanged()
  })
})

describe.each(management)('$name with a publishable token', (op) => {
  it('answers 403: publishable tokens only read published flows', async () => {
    expectError(await send(op, { authorization: `Bearer ${svc.tokens.publishable}` }), 403, 'forbidden')
    await expectUnchanged()
  })
})

describe('publishedFlow token rules', () => {
  it("accepts the workspace's publishable and secret tokens", async () => {
    for (const token of [svc.tokens.publishable, svc.tokens.secret]) {
      expect((await send(publishedFlow, { authorization: `Bearer ${token}` })).status).toBe(200)
    }
  })

  it("answers another workspace's publishable token as if the flow did not exist", async () => {
    const res = await send(publishedFlow, { authorization: `Bearer ${svc.tokens.otherPublishable}` })
    expectError(res, 404, 'flow_not_found')
  })

  it('accepts the Bearer scheme in any case', async () => {
    expect((await send(publishedFlow, { authorization: `bearer ${svc.tokens.publishable}` })).status).toBe(200)
  })
})

describe('tokens at rest', () => {
  it('stores only a hash of each token', async () => {
    const rows = await svc.store.database.query<Record<string, unknown>>(`SELECT * FROM ${svc.store.tables.apiTokens}`)
    const dump = JSON.stringify(rows)
    for (const token of Object.values(svc.tokens)) expect(dump).not.toContain(token.slice(6))
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(String(row.token_hash)))).toBe(true)
  })
})

describe('failed authentications', () => {
  it('are limited per client address: past the limit, 429 whatever the token, until the bucket refills; other addresses go on', async () => {
    const limited = await createTestService(db, { config: { authFailureLimit: { perMinute: 2, burst: 3 } } })
    const sameDatabase = await createTestService(db, { config: { authFailureLimit: { perMinute: 2, burst: 3 } }, schema: limited.schema })
    try {
      // One trusted proxy (the test config): the client address is the entry it appended.
      const list = (ip: string, token: string, svcOf = limited) =>
        svcOf.call('POST', '/v1/flows/import', { token, headers: { 'x-forwarded-for': `198.51.100.77, ${ip}` }, json: {} })
      const guess = `fs_sk_${'G'.repeat(43)}`
      // Calls that authenticate never count.
      for (let i = 0; i < 5; i++) expect((await list('203.0.113.9', limited.tokens.secret)).status).toBe(400)
      for (let i = 0; i < 3; i++) expectError(await list('203.0.113.9', i === 1 ? 'not-a-token' : guess), 401, 'unauthorized')
      const refused = await list('203.0.113.9', guess)
      expectError(refused, 429, 'rate_limited')
      expect(refused.headers.get('retry-after')).toBe('30')
      // The right token gets the same answer: guessing is no longer answered at all, in any process.
      expectError(await list('203.0.113.9', limited.tokens.secret), 429, 'rate_limited')
      expectError(await list('203.0.113.9', guess, sameDatabase), 429, 'rate_limited')
      // Another address is not held back.
      expectError(await list('203.0.113.10', guess), 401, 'unauthorized')
      expect((await list('203.0.113.10', limited.tokens.secret)).status).toBe(400)
      limited.clock.advance(30_000)
      expect((await list('203.0.113.9', limited.tokens.secret)).status).toBe(400)
    } finally {
      await sameDatabase.close()
      await limited.close()
    }
  })
})
