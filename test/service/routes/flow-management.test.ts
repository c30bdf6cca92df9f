import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { errorBodySchema, flowResponseSchema, publicFlowResponseSchema, startChatResponseSchema } from '../../../src/protocol/index'
import {
  createTokenResponseSchema,
  flowSummaryResponseSchema,
  flowsListResponseSchema,
  revokeTokenResponseSchema,
  tokensListResponseSchema,
} from '../../../src/protocol/management'
import { useTestDatabase } from '../helpers/database'
import { greetingFlow, importOverHttp, loadSharedFlow, publishOverHttp } from '../helpers/flows'
import { collectResult } from '../helpers/results'
import { type CallResult, createTestService, OTHER_WORKSPACE, type TestService } from '../helpers/service'

const db = useTestDatabase()
let svc: TestService
beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(() => svc.close())

function expectError(res: CallResult, status: number, code: string) {
  expect(res.status, res.text).toBe(status)
  expect(errorBodySchema.parse(res.body).error.code).toBe(code)
}

const secret = (method: string, path: string, json?: unknown) =>
  svc.call(method, path, { token: svc.tokens.secret, ...(json === undefined ? {} : { json }) })
const greeting = (text: string) => {
  const flow = greetingFlow()
  flow.groups[0].blocks[0].content.richText[0].children[0].text = text
  return flow
}
const firstText = (res: CallResult) => res.body.messages[0].content.richText[0].children[0].text

describe('GET /v1/flows', () => {
  it("lists the workspace's flows, oldest first, with their live version and result counts", async () => {
    const live = await importOverHttp(svc, greetingFlow({ name: 'Live' }))
    await publishOverHttp(svc, live.id)
    svc.clock.advance(1_000)
    const draft = await importOverHttp(svc, greetingFlow({ name: 'Draft', icon: '📝' }))
    await collectResult(svc, live.id, ['Ada', '36'])
    await collectResult(svc, live.id, ['Bob'])
    await svc.call('POST', '/v1/flows/import', {
      token: svc.tokens.otherSecret,
      json: { workspaceId: OTHER_WORKSPACE, flow: greetingFlow({ name: 'Theirs' }) },
    })

    const res = await secret('GET', '/v1/flows')
    expect(res.status).toBe(200)
    const { flows } = flowsListResponseSchema.parse(res.body)
    expect(flows).toEqual([
      {
        id: live.id,
        publicId: live.publicId,
        workspaceId: 'demo',
        name: 'Live',
        isArchived: false,
        isClosed: false,
        createdAt: live.createdAt,
        updatedAt: live.updatedAt,
        publishedAt: expect.any(String),
        results: { total: 2, completed: 1 },
      },
      expect.objectContaining({ id: draft.id, name: 'Draft', icon: '📝', publishedAt: null, results: { total: 0, completed: 0 } }),
    ])
    expectError(await svc.call('GET', '/v1/flows'), 401, 'unauthorized')
    expectError(await svc.call('GET', '/v1/flows', { token: svc.tokens.publishable }), 403, 'forbidden')
    const theirs = flowsListResponseSchema.parse((await svc.call('GET', '/v1/flows', { token: svc.tokens.otherSecret })).body).flows
    expect(theirs.map((flow) => flow.name)).toEqual(['Theirs'])
  })
})

describe('PUT /v1/flows/{flowId}', () => {
  it('replaces the flow from an export, keeping its ids, so every embed gets the new content once published', async () => {
    const flow = await importOverHttp(svc, greeting('Hello from version one!'))
    await publishOverHttp(svc, flow.id)
    const before = await svc.call('POST', `/v1/flows/${flow.publicId}/startChat`, { json: {} })
    expect(firstText(before)).toBe('Hello from version one!')

    // The file as the builder exports it again: its own ids, timestamps and workspace, another theme.
    const file = {
      ...greeting('Hello from version two!'),
      id: 'builder-id',
      publicId: 'builder-public-id',
      workspaceId: 'elsewhere',
      createdAt: '2020-01-01T00:00:00.000Z',
      theme: { general: { font: 'Lato' } },
    }
    svc.clock.advance(1_000)
    const res = await secret('PUT', `/v1/flows/${flow.id}`, { flow: file })
    expect(res.status, res.text).toBe(200)
    const replaced = flowResponseSchema.parse(res.body).flow
    expect(replaced).toMatchObject({
      id: flow.id,
      publicId: flow.publicId,
      workspaceId: 'demo',
      createdAt: flow.createdAt,
      theme: { general: { font: 'Lato' } },
    })
    expect(replaced.updatedAt > flow.updatedAt).toBe(true)

    // Visitors keep the published version until the owner publishes the new one.
    expect(firstText(await svc.call('POST', `/v1/flows/${flow.publicId}/startChat`, { json: {} }))).toBe('Hello from version one!')
    await publishOverHttp(svc, flow.id)
    const after = startChatResponseSchema.parse((await svc.call('POST', `/v1/flows/${flow.publicId}/startChat`, { json: {} })).body)
    expect(after.flowId).toBe(flow.id)
    expect(firstText({ body: after } as CallResult)).toBe('Hello from version two!')
    const embed = await svc.call('GET', `/v1/flows/${flow.publicId}/publishedFlow`, { token: svc.tokens.publishable })
    expect(publicFlowResponseSchema.parse(embed.body).publishedFlow.theme).toMatchObject({ general: { font: 'Lato' } })
    // A conversation begun on version one ends on version one.
    const goOn = await svc.call('POST', `/v1/sessions/${before.body.sessionId}/continueChat`, { json: { message: 'Ada' } })
    expect(goOn.status).toBe(200)
  })

  it('keeps what an export cannot know: status, results table preferences, results', async () => {
    const preferences = { columnsOrder: ['b3', 'b2'], columnsVisibility: { b2: false }, columnsWidth: {} }
    const flow = await importOverHttp(svc, greetingFlow())
    await publishOverHttp(svc, flow.id)
    await collectResult(svc, flow.id, ['Ada'])
    await secret('PATCH', `/v1/flows/${flow.id}`, {
      flow: { isClosed: true, resultsTablePreferences: preferences, customDomain: 'chat.example.com' },
    })
    const res = await secret('PUT', `/v1/flows/${flow.id}`, { flow: greetingFlow({ name: 'Renamed', resultsTablePreferences: null }) })
    expect(res.body.flow).toMatchObject({
      name: 'Renamed',
      isClosed: true,
      resultsTablePreferences: preferences,
      customDomain: 'chat.example.com',
    })
    const own = { columnsOrder: ['b2'] }
    const withOwn = await secret('PUT', `/v1/flows/${flow.id}`, { flow: greetingFlow({ resultsTablePreferences: own }) })
    expect(withOwn.body.flow.resultsTablePreferences).toEqual(own)
    const list = flowsListResponseSchema.parse((await secret('GET', '/v1/flows')).body)
    expect(list.flows[0]!.results.total).toBe(1)
  })

  it('converts an export of an older schema version, like an import', async () => {
    const flow = await importOverHttp(svc, greetingFlow())
    const legacy = loadSharedFlow('tpl-nps.json')
    const res = await secret('PUT', `/v1/flows/${flow.id}`, { flow: { ...legacy, version: undefined } })
    expect(res.status, res.text).toBe(200)
    expect(res.body.flow).toMatchObject({ id: flow.id, publicId: flow.publicId, name: legacy.name })
  })

  it('refuses a file that is not a flow, an old updatedAt, and a flow of another workspace, changing nothing', async () => {
    const flow = await importOverHttp(svc, greetingFlow())
    const notFlows: unknown[] = [
      {},
      [],
      'flow',
      null,
      { flow: null },
      { flow: [] },
      { flow: { groups: 'x', events: [], edges: [] } },
      { flow: { version: '6', name: 'No groups' } },
      { flow: { name: 'Only a name' } },
      { flow: greetingFlow(), extra: 1 },
    ]
    for (const json of notFlows) expectError(await secret('PUT', `/v1/flows/${flow.id}`, json), 400, 'invalid_body')
    expectError(
      await svc.call('PUT', `/v1/flows/${flow.id}`, {
        token: svc.tokens.secret,
        raw: 'not json',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'invalid_body',
    )
    expectError(
      await svc.call('PUT', `/v1/flows/${flow.id}`, { token: svc.tokens.secret, raw: '{}', headers: { 'content-type': 'text/plain' } }),
      415,
      'unsupported_media_type',
    )
    const stale = await secret('PUT', `/v1/flows/${flow.id}`, {
      flow: greetingFlow({ name: 'Late' }),
      updatedAt: '2020-01-01T00:00:00.000Z',
    })
    expectError(stale, 409, 'conflict')
    expectError(await secret('PUT', `/v1/flows/${flow.id}`, { flow: greetingFlow(), updatedAt: 'yesterday' }), 400, 'invalid_body')
    expectError(
      await svc.call('PUT', `/v1/flows/${flow.id}`, { token: svc.tokens.otherSecret, json: { flow: greetingFlow({ name: 'Hijack' }) } }),
      404,
      'flow_not_found',
    )
    expectError(
      await svc.call('PUT', `/v1/flows/${flow.id}`, { token: svc.tokens.publishable, json: { flow: greetingFlow() } }),
      403,
      'forbidden',
    )
    expect((await secret('GET', `/v1/flows/${flow.id}`)).body.flow).toMatchObject({ name: 'Greeting', updatedAt: flow.updatedAt })
    const current = await secret('PUT', `/v1/flows/${flow.id}`, { flow: greetingFlow({ name: 'On time' }), updatedAt: flow.updatedAt })
    expect(current.body.flow.name).toBe('On time')
  })
})

describe('archive, unarchive, unpublish', () => {
  it('take a flow out of service and back, answering with its summary', async () => {
    const flow = await importOverHttp(svc, greetingFlow())
    await publishOverHttp(svc, flow.id)
    const running = await svc.call('POST', `/v1/flows/${flow.id}/startChat`, { json: {} })

    const unpublished = await secret('POST', `/v1/flows/${flow.id}/unpublish`)
    expect(flowSummaryResponseSchema.parse(unpublished.body).flow).toMatchObject({ id: flow.id, publishedAt: null, isArchived: false })
    expectError(await svc.call('POST', `/v1/flows/${flow.publicId}/startChat`, { json: {} }), 404, 'not_published')
    expectError(await svc.call('GET', `/v1/flows/${flow.id}/publishedFlow`, { token: svc.tokens.publishable }), 404, 'not_published')
    // A conversation under way goes on with its version.
    expect((await svc.call('POST', `/v1/sessions/${running.body.sessionId}/continueChat`, { json: { message: 'Ada' } })).status).toBe(200)
    // Unpublishing twice changes nothing.
    expect((await secret('POST', `/v1/flows/${flow.id}/unpublish`)).body.flow.publishedAt).toBeNull()

    svc.clock.advance(1_000)
    const republished = await publishOverHttp(svc, flow.id)
    const started = await svc.call('POST', `/v1/flows/${flow.publicId}/startChat`, { json: {} })
    expect(started.body.publishedAt).toBe(republished.updatedAt)

    const archived = await secret('POST', `/v1/flows/${flow.id}/archive`)
    expect(archived.body.flow).toMatchObject({ isArchived: true, publishedAt: republished.updatedAt })
    expectError(await svc.call('POST', `/v1/flows/${flow.publicId}/startChat`, { json: {} }), 404, 'flow_not_found')
    expect((await secret('POST', `/v1/flows/${flow.id}/unarchive`)).body.flow.isArchived).toBe(false)
    expect((await svc.call('POST', `/v1/flows/${flow.publicId}/startChat`, { json: {} })).status).toBe(200)

    for (const change of ['archive', 'unarchive', 'unpublish']) {
      expectError(await svc.call('POST', `/v1/flows/${flow.id}/${change}`, { token: svc.tokens.otherSecret }), 404, 'flow_not_found')
      expectError(await svc.call('POST', `/v1/flows/${flow.id}/${change}`, { token: svc.tokens.publishable }), 403, 'forbidden')
      expectError(await svc.call('POST', `/v1/flows/${flow.id}/${change}`), 401, 'unauthorized')
      expectError(await secret('POST', `/v1/flows/no-such-flow/${change}`), 404, 'flow_not_found')
    }
    expect((await secret('GET', `/v1/flows/${flow.id}`)).body.flow.isArchived).toBe(false)
  })
})

describe('tokens', () => {
  it('lists the workspace’s tokens without their secret, and marks the one in use', async () => {
    const res = await secret('GET', '/v1/tokens')
    expect(res.status).toBe(200)
    const { tokens } = tokensListResponseSchema.parse(res.body)
    expect(tokens.map((token) => token.kind).sort()).toEqual(['publishable', 'secret'])
    expect(tokens.filter((token) => token.current).map((token) => token.kind)).toEqual(['secret'])
    expect(res.text).not.toContain(svc.tokens.secret)
    expect(res.text).not.toContain(svc.tokens.publishable)
    expect(res.text).not.toContain(svc.tokens.secret.slice(6, 20))
  })

  it('makes a token shown once, which works at once; revoking it refuses its next request', async () => {
    const made = await secret('POST', '/v1/tokens', { kind: 'secret', label: 'CI deploys' })
    expect(made.status, made.text).toBe(200)
    const { token, value } = createTokenResponseSchema.parse(made.body)
    expect(value).toMatch(/^fs_sk_[A-Za-z0-9_-]{43}$/)
    expect(token).toMatchObject({ kind: 'secret', label: 'CI deploys', hint: `…${value.slice(-4)}`, current: false })
    const listed = await secret('GET', '/v1/tokens')
    expect(listed.text).not.toContain(value)
    expect(listed.body.tokens.map((t: { id: string }) => t.id)).toContain(token.id)

    expect((await svc.call('GET', '/v1/flows', { token: value })).status).toBe(200)
    const revoked = await svc.call('DELETE', `/v1/tokens/${token.id}`, { token: value })
    expect(revokeTokenResponseSchema.parse(revoked.body)).toEqual({ id: token.id, revoked: true })
    expectError(await svc.call('GET', '/v1/flows', { token: value }), 401, 'unauthorized')
    expectError(await secret('DELETE', `/v1/tokens/${token.id}`), 404, 'not_found')

    const publishable = createTokenResponseSchema.parse((await secret('POST', '/v1/tokens', { kind: 'publishable' })).body)
    expect(publishable.value).toMatch(/^fs_pk_/)
    expect(publishable.token.label).toBeNull()
  })

  it("never shows, makes or revokes another workspace's tokens, and refuses bad requests", async () => {
    const theirs = tokensListResponseSchema.parse((await svc.call('GET', '/v1/tokens', { token: svc.tokens.otherSecret })).body).tokens
    for (const token of theirs) expectError(await secret('DELETE', `/v1/tokens/${token.id}`), 404, 'not_found')
    expect((await svc.call('GET', '/v1/flows', { token: svc.tokens.otherSecret })).status).toBe(200)
    const mine = tokensListResponseSchema.parse((await secret('GET', '/v1/tokens')).body).tokens
    expect(mine.some((token) => theirs.some((other) => other.id === token.id))).toBe(false)

    expectError(await svc.call('GET', '/v1/tokens', { token: svc.tokens.publishable }), 403, 'forbidden')
    expectError(await svc.call('POST', '/v1/tokens', { token: svc.tokens.publishable, json: { kind: 'secret' } }), 403, 'forbidden')
    expectError(await svc.call('POST', '/v1/tokens', { json: { kind: 'secret' } }), 401, 'unauthorized')
    for (const json of [
      {},
      { kind: 'admin' },
      { kind: 'secret', label: 'x'.repeat(201) },
      { kind: 'secret', workspaceId: OTHER_WORKSPACE },
      [],
    ]) {
      expectError(await secret('POST', '/v1/tokens', json), 400, 'invalid_body')
    }
    expectError(await secret('DELETE', '/v1/tokens/..%2F..'), 404, 'not_found')
    expect(tokensListResponseSchema.parse((await secret('GET', '/v1/tokens')).body).tokens).toHaveLength(mine.length)
  })
})

describe('the token matrix of the management calls', () => {
  it('answers each caller as its token allows, and a revoked token at once, in every instance of the service', async () => {
    const flow = await importOverHttp(svc, greetingFlow())
    await publishOverHttp(svc, flow.id)
    const made = createTokenResponseSchema.parse((await secret('POST', '/v1/tokens', { kind: 'secret', label: 'to revoke' })).body)
    const revoked = made.value
    const spare = createTokenResponseSchema.parse((await secret('POST', '/v1/tokens', { kind: 'secret' })).body)
    // A second instance of the service on the same database: revocation reaches it at once.
    const other = await createTestService(db, { schema: svc.schema })
    try {
      expect((await other.call('GET', '/v1/flows', { token: revoked })).status).toBe(200)
      expect((await svc.call('DELETE', `/v1/tokens/${made.token.id}`, { token: svc.tokens.secret })).status).toBe(200)

      const calls: { method: string; path: string; json?: unknown; flowScoped: boolean }[] = [
        { method: 'GET', path: '/v1/flows', flowScoped: false },
        { method: 'GET', path: `/v1/flows/${flow.id}`, flowScoped: true },
        { method: 'PUT', path: `/v1/flows/${flow.id}`, json: { flow: greetingFlow() }, flowScoped: true },
        { method: 'PATCH', path: `/v1/flows/${flow.id}`, json: { flow: { name: 'Renamed' } }, flowScoped: true },
        { method: 'POST', path: `/v1/flows/${flow.id}/publish`, flowScoped: true },
        { method: 'POST', path: `/v1/flows/${flow.id}/unpublish`, flowScoped: true },
        { method: 'POST', path: `/v1/flows/${flow.id}/archive`, flowScoped: true },
        { method: 'POST', path: `/v1/flows/${flow.id}/unarchive`, flowScoped: true },
        { method: 'GET', path: `/v1/flows/${flow.id}/results`, flowScoped: true },
        { method: 'GET', path: `/v1/flows/${flow.id}/results/export?format=csv`, flowScoped: true },
        { method: 'GET', path: '/v1/tokens', flowScoped: false },
        { method: 'POST', path: '/v1/tokens', json: { kind: 'publishable' }, flowScoped: false },
        { method: 'DELETE', path: `/v1/tokens/${spare.token.id}`, flowScoped: false },
      ]
      for (const { method, path, json, flowScoped } of calls) {
        const as = (token: string | undefined, instance = svc) =>
          instance.call(method, path, { ...(token === undefined ? {} : { token }), ...(json === undefined ? {} : { json }) })
        const label = `${method} ${path}`
        for (const token of [undefined, 'fs_sk_not-a-token', revoked]) {
          expect((await as(token)).status, `${label} with ${token}`).toBe(401)
          expectError(await as(token, other), 401, 'unauthorized')
        }
        expectError(await as(svc.tokens.publishable), 403, 'forbidden')
        const theirs = await as(svc.tokens.otherSecret)
        // Another workspace's secret token: this flow and this token are not among its own; lists and
        // new tokens are its own workspace's.
        if (flowScoped) expectError(theirs, 404, 'flow_not_found')
        else if (method === 'DELETE') expectError(theirs, 404, 'not_found')
        else expect(theirs.status, label).toBe(200)
        expect((await as(svc.tokens.secret)).status, label).toBe(200)
      }
      expectError(await secret('DELETE', `/v1/tokens/${spare.token.id}`), 404, 'not_found')
    } finally {
      await other.integrations.close()
      await other.store.close()
    }
  })
})
