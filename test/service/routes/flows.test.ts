import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  errorBodySchema,
  flowResponseSchema,
  getFlowResponseSchema,
  publicFlowResponseSchema,
  publishedFlowResponseSchema,
  publishedFlowSchema,
} from '../../../src/protocol/index'
import { FLOW_SECRETS, secretFlow } from '../fixtures/secret-flow'
import { useTestDatabase } from '../helpers/database'
import { greetingFlow, importOverHttp, loadSharedFlow, publishOverHttp } from '../helpers/flows'
import { createTestService, type TestService, WORKSPACE } from '../helpers/service'

const db = useTestDatabase()
let svc: TestService
beforeEach(async () => {
  svc = await createTestService(db)
})
afterEach(() => svc.close())

const FLOW_FIELDS = [
  'version',
  'id',
  'name',
  'events',
  'groups',
  'edges',
  'variables',
  'theme',
  'selectedThemeTemplateId',
  'settings',
  'createdAt',
  'updatedAt',
  'icon',
  'folderId',
  'publicId',
  'customDomain',
  'workspaceId',
  'resultsTablePreferences',
  'isArchived',
  'isClosed',
  'messagingAppCredentialsId',
  'riskLevel',
]
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

function expectError(res: { status: number; body: unknown }, status: number, code: string) {
  expect(res.status).toBe(status)
  expect(errorBodySchema.parse(res.body).error.code).toBe(code)
}

describe('POST /v1/flows/import', () => {
  it('imports an unchanged export with new server-assigned fields and every Flow field', async () => {
    const file = loadSharedFlow('test-chat-main.json')
    const res = await svc.call('POST', '/v1/flows/import', {
      token: svc.tokens.secret,
      json: { workspaceId: WORKSPACE, flow: file },
    })
    expect(res.status).toBe(200)
    const { flow } = flowResponseSchema.parse(res.body)
    expect(Object.keys(flow)).toEqual(expect.arrayContaining(FLOW_FIELDS))
    expect(flow.id).not.toBe(file.id)
    expect(flow.id).toMatch(/^[A-Za-z0-9_-]{24}$/)
    expect(flow.publicId).toMatch(/^complete-bot-[a-z0-9]{6}$/)
    expect(flow.workspaceId).toBe(WORKSPACE)
    expect(flow.createdAt).toBe(svc.clock.now().toISOString())
    expect(flow.updatedAt).toMatch(ISO_MS)
    expect(flow).toMatchObject({ isArchived: false, isClosed: false, customDomain: null, riskLevel: null })
    expect(flow.messagingAppCredentialsId).toBeNull()
    expect(flow).not.toHaveProperty('whatsAppCredentialsId')
    expect(flow.groups).toEqual(file.groups)
    expect(flow.edges).toEqual(file.edges)
    expect(flow.theme).toEqual(file.theme)
    expect(flow.name).toBe('Complete bot')
  })

  it('renames brand-named fields to the neutral names', async () => {
    const flow = await importOverHttp(svc, {
      ...greetingFlow(),
      whatsAppCredentialsId: 'cred-1',
      settings: { whatsApp: { isEnabled: true, sessionExpiryTimeout: 4.5 } },
    })
    expect(flow.messagingAppCredentialsId).toBe('cred-1')
    expect(flow.settings).toEqual({ messagingApp: { isEnabled: true, sessionExpiryTimeout: 4.5 } })
  })

  it('ignores the id, workspace and flags an export carries', async () => {
    const flow = await importOverHttp(svc, {
      ...greetingFlow(),
      id: 'chosen-id',
      workspaceId: 'someone-else',
      publicId: 'taken-elsewhere',
      isArchived: true,
      isClosed: true,
      createdAt: '2020-01-01T00:00:00.000Z',
    })
    expect(flow.id).not.toBe('chosen-id')
    expect(flow).toMatchObject({ workspaceId: WORKSPACE, isArchived: false, isClosed: false })
    expect(flow.publicId).toMatch(/^greeting-[a-z0-9]{6}$/)
    expect(flow.createdAt).toBe(svc.clock.now().toISOString())
  })

  it('gives every import its own id and publicId', async () => {
    const a = await importOverHttp(svc, greetingFlow())
    const b = await importOverHttp(svc, greetingFlow())
    expect(a.id).not.toBe(b.id)
    expect(a.publicId).not.toBe(b.publicId)
  })

  it("refuses a workspaceId other than the token's", async () => {
    const res = await svc.call('POST', '/v1/flows/import', {
      token: svc.tokens.secret,
      json: { workspaceId: 'other', flow: greetingFlow() },
    })
    expectError(res, 403, 'forbidden')
    expect(await svc.store.flows.listByWorkspace()).toEqual([])
  })
})

describe('GET /v1/flows/{flowId}', () => {
  it('returns the flow and the write mode of the owner', async () => {
    const created = await importOverHttp(svc, greetingFlow())
    const res = await svc.call('GET', `/v1/flows/${created.id}`, { token: svc.tokens.secret })
    expect(res.status).toBe(200)
    const body = getFlowResponseSchema.parse(res.body)
    expect(body.currentUserMode).toBe('write')
    expect(body.flow).toEqual(created)
  })

  it('migrates version 6 to 6.1 only when asked', async () => {
    const created = await importOverHttp(svc, greetingFlow({ version: '6' }))
    const get = (query: string) => svc.call('GET', `/v1/flows/${created.id}${query}`, { token: svc.tokens.secret })
    expect((await get('')).body.flow.version).toBe('6')
    expect((await get('?migrateToLatestVersion=false')).body.flow.version).toBe('6')
    expect((await get('?migrateToLatestVersion=true')).body.flow.version).toBe('6.1')
  })

  it('refuses an invalid query value', async () => {
    const created = await importOverHttp(svc, greetingFlow())
    const res = await svc.call('GET', `/v1/flows/${created.id}?migrateToLatestVersion=maybe`, {
      token: svc.tokens.secret,
    })
    expectError(res, 400, 'invalid_query')
    expect(res.body.error.details[0].path).toBe('migrateToLatestVersion')
  })

  it('answers 404 for an unknown flow', async () => {
    const res = await svc.call('GET', '/v1/flows/AAAAAAAAAAAAAAAAAAAAAAAA', { token: svc.tokens.secret })
    expectError(res, 404, 'flow_not_found')
  })
})

describe('PATCH /v1/flows/{flowId}', () => {
  it('replaces present fields and keeps omitted ones', async () => {
    const created = await importOverHttp(svc, greetingFlow())
    svc.clock.advance(1000)
    const res = await svc.call('PATCH', `/v1/flows/${created.id}`, {
      token: svc.tokens.secret,
      json: { flow: { name: 'Renamed', icon: '🎉', isClosed: true, updatedAt: created.updatedAt } },
    })
    expect(res.status).toBe(200)
    const { flow } = flowResponseSchema.parse(res.body)
    expect(flow).toMatchObject({ name: 'Renamed', icon: '🎉', isClosed: true })
    expect(flow.groups).toEqual(created.groups)
    expect(flow.theme).toEqual(created.theme)
    expect(flow.createdAt).toBe(created.createdAt)
    expect(flow.updatedAt).toBe(svc.clock.now().toISOString())
    const stored = await svc.call('GET', `/v1/flows/${created.id}`, { token: svc.tokens.secret })
    expect(stored.body.flow).toEqual(flow)
  })

  it("refuses a publicId that is one of the service's own top-level paths, where its share page could not be reached", async () => {
    const created = await importOverHttp(svc, greetingFlow())
    for (const publicId of ['admin', 'metrics', 'widget']) {
      const res = await svc.call('PATCH', `/v1/flows/${created.id}`, { token: svc.tokens.secret, json: { flow: { publicId } } })
      expect(res.status).toBe(400)
      expect(res.body.error).toMatchObject({ code: 'invalid_body', details: [{ path: 'flow.publicId' }] })
    }
    expect((await svc.call('GET', `/v1/flows/${created.id}`, { token: svc.tokens.secret })).body.flow.publicId).toBe(created.publicId)
  })

  it('ignores read-only fields', async () => {
    const created = await importOverHttp(svc, greetingFlow())
    const res = await svc.call('PATCH', `/v1/flows/${created.id}`, {
      token: svc.tokens.secret,
      json: {
        flow: { id: 'x', createdAt: '2000-01-01T00:00:00.000Z', workspaceId: 'other', isArchived: true, name: 'N' },
      },
    })
    expect(res.status).toBe(200)
    expect(res.body.flow).toMatchObject({
      id: created.id,
      createdAt: created.createdAt,
      workspaceId: WORKSPACE,
      isArchived: false,
      name: 'N',
    })
  })

  it('answers 409 when updatedAt is older than the stored one', async () => {
    const created = await importOverHttp(svc, greetingFlow())
    svc.clock.advance(5000)
    await svc.call('PATCH', `/v1/flows/${created.id}`, { token: svc.tokens.secret, json: { flow: { name: 'First' } } })
    const res = await svc.call('PATCH', `/v1/flows/${created.id}`, {
      token: svc.tokens.secret,
      json: { flow: { name: 'Stale', updatedAt: created.updatedAt } },
    })
    expectError(res, 409, 'conflict')
    const stored = await svc.call('GET', `/v1/flows/${created.id}`, { token: svc.tokens.secret })
    expect(stored.body.flow.name).toBe('First')
  })

  it('sets a custom publicId and refuses one that is taken or not a slug', async () => {
    const a = await importOverHttp(svc, greetingFlow())
    const b = await importOverHttp(svc, greetingFlow())
    const patch = (id: string, publicId: string) =>
      svc.call('PATCH', `/v1/flows/${id}`, { token: svc.tokens.secret, json: { flow: { publicId } } })

    expect((await patch(a.id, 'my-flow')).body.flow.publicId).toBe('my-flow')
    expectError(await patch(b.id, 'my-flow'), 409, 'conflict')
    expectError(await patch(b.id, a.id.toLowerCase() === a.id ? a.id : 'my-flow'), 409, 'conflict')
    expectError(await patch(b.id, 'Not A Slug'), 400, 'invalid_body')
    expectError(await patch(b.id, '-edge-'), 400, 'invalid_body')
    expect((await patch(a.id, 'my-flow')).status).toBe(200) // its own publicId again is fine
    const stored = await svc.store.flows.findById(b.id)
    expect(stored?.publicId).toBe(b.publicId)
  })

  it('refuses to clear required fields and malformed timestamps', async () => {
    const created = await importOverHttp(svc, greetingFlow())
    const res = await svc.call('PATCH', `/v1/flows/${created.id}`, {
      token: svc.tokens.secret,
      json: { flow: { name: null, groups: null } },
    })
    expectError(res, 400, 'invalid_body')
    expect(res.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['flow.groups', 'flow.name'])
    const bad = await svc.call('PATCH', `/v1/flows/${created.id}`, {
      token: svc.tokens.secret,
      json: { flow: { updatedAt: 'yesterday' } },
    })
    expectError(bad, 400, 'invalid_body')
  })

  it('answers 404 for an unknown flow', async () => {
    const res = await svc.call('PATCH', '/v1/flows/nope', { token: svc.tokens.secret, json: { flow: { name: 'x' } } })
    expectError(res, 404, 'flow_not_found')
  })
})

describe('POST /v1/flows/{flowId}/publish and GET …/publishedFlow', () => {
  it('publishes a snapshot without owner fields', async () => {
    const created = await importOverHttp(svc, greetingFlow())
    const res = await svc.call('POST', `/v1/flows/${created.id}/publish`, { token: svc.tokens.secret })
    expect(res.status).toBe(200)
    const published = publishedFlowSchema.parse(res.body.publishedFlow)
    expect(published).toMatchObject({
      flowId: created.id,
      version: '6',
      groups: created.groups,
      edges: created.edges,
      events: created.events,
      variables: created.variables,
      theme: created.theme,
      settings: created.settings,
    })
    for (const field of ['name', 'icon', 'folderId', 'workspaceId', 'publicId', 'isClosed', 'isArchived']) {
      expect(published).not.toHaveProperty(field)
    }
  })

  it('re-publishing replaces the snapshot, keeps the id and changes updatedAt', async () => {
    const created = await importOverHttp(svc, greetingFlow())
    const first = await publishOverHttp(svc, created.id)
    await svc.call('PATCH', `/v1/flows/${created.id}`, {
      token: svc.tokens.secret,
      json: { flow: { theme: { customCss: '.x{}' } } },
    })
    const second = await publishOverHttp(svc, created.id)
    expect(second.id).toBe(first.id)
    expect(second.createdAt).toBe(first.createdAt)
    expect(Date.parse(second.updatedAt)).toBeGreaterThan(Date.parse(first.updatedAt))
    expect(second.theme).toEqual({ customCss: '.x{}' })

    const read = await svc.call('GET', `/v1/flows/${created.id}/publishedFlow`, { token: svc.tokens.secret })
    expect(read.body.publishedFlow).toEqual(second)
  })

  it('reads the published flow by id or publicId: the whole snapshot with the secret token, its public projection with the publishable one', async () => {
    const created = await importOverHttp(svc, greetingFlow())
    const published = await publishOverHttp(svc, created.id)
    for (const ref of [created.id, created.publicId]) {
      const whole = await svc.call('GET', `/v1/flows/${ref}/publishedFlow`, { token: svc.tokens.secret })
      expect(whole.status).toBe(200)
      expect(publishedFlowResponseSchema.parse(whole.body)).toEqual({ publishedFlow: published, version: '3' })
      const res = await svc.call('GET', `/v1/flows/${ref}/publishedFlow`, { token: svc.tokens.publishable })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        publishedFlow: {
          id: published.id,
          flowId: created.id,
          name: created.name,
          version: '6',
          createdAt: published.createdAt,
          updatedAt: published.updatedAt,
          theme: created.theme,
          settings: { general: { isInputPrefillEnabled: false } },
          blockKinds: ['number input', 'text', 'text input'],
        },
        version: '3',
      })
    }
    const migrated = await svc.call('GET', `/v1/flows/${created.id}/publishedFlow?migrateToLatestVersion=true`, {
      token: svc.tokens.publishable,
    })
    expect(migrated.body.publishedFlow.version).toBe('6.1')
    const invalid = await svc.call('GET', `/v1/flows/${created.id}/publishedFlow?migrateToLatestVersion=yes please`, {
      token: svc.tokens.publishable,
    })
    expectError(invalid, 400, 'invalid_query')
  })

  it("never shows a publishable token a flow's blocks, code, credentials, addresses, edges or variable values", async () => {
    const created = await importOverHttp(svc, secretFlow())
    await publishOverHttp(svc, created.id)
    const path = `/v1/flows/${created.publicId}/publishedFlow?migrateToLatestVersion=true`
    const whole = JSON.stringify((await svc.call('GET', path, { token: svc.tokens.secret })).body)
    const res = await svc.call('GET', path, { token: svc.tokens.publishable })
    expect(res.status).toBe(200)
    const projection = JSON.stringify(res.body)
    for (const [where, secret] of Object.entries(FLOW_SECRETS)) {
      // JSON.stringify escapes as the response does: compare like with like.
      const written = JSON.stringify(secret).slice(1, -1)
      expect(whole, `the secret token reads ${where}`).toContain(written)
      expect(projection, `the projection shows ${where}`).not.toContain(written)
    }
    // What the widget needs is there: its theme, the settings it reads, and what to prepare.
    const { publishedFlow } = publicFlowResponseSchema.parse(res.body)
    expect(Object.keys(publishedFlow).sort()).toEqual([
      'blockKinds',
      'createdAt',
      'flowId',
      'id',
      'name',
      'settings',
      'theme',
      'updatedAt',
      'version',
    ])
    expect(publishedFlow.theme).toEqual(secretFlow().theme)
    expect(publishedFlow.settings).toEqual({
      general: { isInputPrefillEnabled: false, isTypingEmulationEnabled: true, rememberUser: { isEnabled: true, storage: 'local' } },
      typingEmulation: { enabled: true, speed: 400, maxDelay: 2, delayBetweenBubbles: 1, isDisabledOnFirstMessage: true },
      metadata: { title: 'Pricing desk' },
      publicShare: { isEnabled: true },
    })
    expect(publishedFlow.blockKinds).toEqual(['choice input', 'stream', 'text', 'text input', 'video'])
  })

  it('answers 404 not_published before the first publish, and 404 for unknown flows', async () => {
    const created = await importOverHttp(svc, greetingFlow())
    const res = await svc.call('GET', `/v1/flows/${created.publicId}/publishedFlow`, { token: svc.tokens.publishable })
    expectError(res, 404, 'not_published')
    const unknown = await svc.call('GET', '/v1/flows/unknown-flow/publishedFlow', { token: svc.tokens.publishable })
    expectError(unknown, 404, 'flow_not_found')
    const publish = await svc.call('POST', '/v1/flows/unknown-flow/publish', { token: svc.tokens.secret })
    expectError(publish, 404, 'flow_not_found')
  })
})

describe('unknown routes', () => {
  it('answer 404 not_found with the error body', async () => {
    expectError(await svc.call('GET', '/v1/nothing-here'), 404, 'not_found')
    expectError(await svc.call('DELETE', '/v1/flows/abc', { token: svc.tokens.secret }), 404, 'not_found')
  })
})
