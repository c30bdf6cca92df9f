import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { chatStepResultSchema } from '../../../src/protocol/index'
import type { ServiceConfig } from '../../../src/service/config'
import { closeSandbox } from '../../../src/service/engine/sandbox/sandbox'
import { useTestDatabase } from '../helpers/database'
import { type DnsTestServer, startDnsTestServer } from '../helpers/dns-test-server'
import { type HttpTestServer, startHttpTestServer } from '../helpers/http-test-server'
import { createTestService, OTHER_WORKSPACE, type TestService, WORKSPACE } from '../helpers/service'
import { until } from '../helpers/until'

/**
 * Outgoing calls through the service, against real servers on loopback: the name server the
 * service is given answers `b.test` and never answers any `*.silent.test` name.
 */
const db = useTestDatabase()
let server: HttpTestServer
let dns: DnsTestServer
const services: TestService[] = []

beforeAll(async () => {
  server = await startHttpTestServer()
  dns = await startDnsTestServer({ 'b.test': ['127.0.0.1'] }, { silent: (name) => name.endsWith('.silent.test') })
})
afterAll(async () => {
  await Promise.all([server.close(), dns.close()])
  await closeSandbox()
})
afterEach(async () => {
  for (const svc of services.splice(0).reverse()) await svc.close()
})

async function service(config: Partial<ServiceConfig> = {}): Promise<TestService> {
  const svc = await createTestService(db, { config: { outboundAllowHosts: ['127.0.0.1'], outboundDnsServers: [dns.address], ...config } })
  services.push(svc)
  return svc
}

const text = (id: string, value: string) => ({ id, type: 'text', content: { richText: [{ type: 'p', children: [{ text: value }] }] } })

/** Calls `url` as the chat starts and shows the status; with `loop`, jumps back to call again. */
function callingFlow(url: string, options: { timeout?: number; loop?: boolean } = {}) {
  const request = {
    id: 'call',
    type: 'Webhook',
    options: {
      ...(options.timeout ? { timeout: options.timeout } : {}),
      webhook: { url, method: 'GET' },
      responseVariableMapping: [{ id: 'm', variableId: 'vStatus', bodyPath: 'statusCode' }],
    },
  }
  const blocks = options.loop
    ? [request, { id: 'again', type: 'Jump', options: { groupId: 'g' } }]
    : [request, text('shown', 'Status {{Status}}')]
  return {
    version: '6',
    name: 'Calls out',
    events: [{ id: 'ev', type: 'start', outgoingEdgeId: 'e0', graphCoordinates: { x: 0, y: 0 } }],
    variables: [{ id: 'vStatus', name: 'Status' }],
    groups: [{ id: 'g', title: 'Call', blocks }],
    edges: [{ id: 'e0', from: { eventId: 'ev' }, to: { groupId: 'g' } }],
  }
}

/** Imports and publishes `flow` in `workspace` and returns a function starting a chat on it. */
async function published(svc: TestService, workspace: string, flow: unknown) {
  const token = workspace === WORKSPACE ? svc.tokens.secret : svc.tokens.otherSecret
  const imported = await svc.call('POST', '/v1/flows/import', { token, json: { workspaceId: workspace, flow } })
  expect(imported.status).toBe(200)
  expect((await svc.call('POST', `/v1/flows/${imported.body.flow.id}/publish`, { token })).status).toBe(200)
  return async () => {
    const res = await svc.call('POST', `/v1/flows/${imported.body.flow.id}/startChat`)
    expect(res.status).toBe(200)
    return res.body
  }
}

const shown = (body: unknown) =>
  (chatStepResultSchema.parse(body).messages ?? []).map((m) => (m.content as { plainText?: string }).plainText ?? '')

describe('name servers that never answer', () => {
  it("stall only the workspace whose flows call them: another workspace's HTTP blocks complete meanwhile", async () => {
    const svc = await service()
    const stalling = await published(svc, WORKSPACE, callingFlow(`http://api.silent.test:${server.port}/echo`, { timeout: 30 }))
    const other = await published(svc, OTHER_WORKSPACE, callingFlow(`http://b.test:${server.port}/echo`))

    // More stalled chats than the old resolver's two lookups at once, and than the workspace's slots.
    const stalled = Array.from({ length: 6 }, () => stalling())
    let settled = false
    void Promise.all(stalled).then(() => (settled = true))
    await until(() => dns.namesAsked().includes('api.silent.test'))

    for (let i = 0; i < 2; i++) expect(shown(await other())).toEqual(['Status 200'])
    expect(settled).toBe(false)
    // The stalled ones end on their own: the lookup gave up (a few seconds), the flow went on.
    for (const body of await Promise.all(stalled)) expect(shown(body)).toEqual(['Status 500'])
  })
})

describe('HTTP calls per step', () => {
  it('a reflector loop [HTTP request → Jump back] sends 10 requests per step by default', async () => {
    const svc = await service()
    const start = await published(svc, WORKSPACE, callingFlow(`${server.origin}/echo?reflect=default`, { loop: true }))
    await start()
    expect(server.received.filter((request) => request.query.get('reflect') === 'default')).toHaveLength(10)
  })

  it('HTTP_CALLS_PER_STEP sets another cap; every step gets its own', async () => {
    const svc = await service({ outboundLimits: { callsPerStep: 3, workspaceCalls: 16, workspaceLookups: 4 } })
    const start = await published(svc, WORKSPACE, callingFlow(`${server.origin}/echo?reflect=three`, { loop: true }))
    const first = await start()
    expect(first.logs).toContainEqual(
      expect.objectContaining({
        status: 'error',
        description: 'HTTP request not sent (This step already made 3 calls, the most one step may make)',
      }),
    )
    await start()
    expect(server.received.filter((request) => request.query.get('reflect') === 'three')).toHaveLength(6)
  })
})
