import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { chatStepResultSchema } from '../../../src/protocol/index'
import { closeSandbox } from '../../../src/service/engine/sandbox/sandbox'
import { HOSTILE_HEADER_VALUES } from '../engine/blocks/http-request/fixtures/hostile-header-values'
import { useTestDatabase } from '../helpers/database'
import { importOverHttp, publishOverHttp } from '../helpers/flows'
import { type HttpTestServer, startHttpTestServer } from '../helpers/http-test-server'
import { type CapturedLogs, captureLogs } from '../helpers/logs'
import { createTestService, type TestService } from '../helpers/service'

/**
 * A visitor's answer in the headers of an HTTP request block, through the service against a real
 * HTTP server: whatever the answer, the visitor never gets a 5xx, the flow goes on, and the
 * `Authorization` value (a key) is in no log and no response.
 */
const db = useTestDatabase()
const SECRET = 'sk-live-SECRET'
let server: HttpTestServer
let svc: TestService

beforeAll(async () => {
  server = await startHttpTestServer()
  svc = await createTestService(db, { config: { outboundAllowHosts: ['127.0.0.1'] } })
})
afterAll(async () => {
  await svc.close()
  await server.close()
  await closeSandbox()
})
let logs: CapturedLogs | undefined
afterEach(() => {
  vi.restoreAllMocks()
  logs?.restore()
})

const text = (id: string, value: string) => ({ id, type: 'text', content: { richText: [{ type: 'p', children: [{ text: value }] }] } })

/** Asks a name, sends it in two headers, shows the status, asks again. */
function headerFlow(url: string) {
  return {
    version: '6',
    name: 'Headers',
    events: [{ id: 'ev', type: 'start', outgoingEdgeId: 'e0', graphCoordinates: { x: 0, y: 0 } }],
    variables: [
      { id: 'vName', name: 'Name' },
      { id: 'vStatus', name: 'Status' },
    ],
    groups: [
      { id: 'ask', title: 'Ask', blocks: [{ id: 'name', type: 'text input', outgoingEdgeId: 'e1', options: { variableId: 'vName' } }] },
      {
        id: 'call',
        title: 'Call',
        blocks: [
          {
            id: 'http',
            type: 'Webhook',
            options: {
              webhook: {
                url,
                method: 'GET',
                headers: [
                  { id: 'a', key: 'Authorization', value: `Bearer ${SECRET} {{Name}}` },
                  { id: 'v', key: 'X-Visitor', value: '{{Name}}' },
                ],
              },
              responseVariableMapping: [{ id: 'm', variableId: 'vStatus', bodyPath: 'statusCode' }],
            },
          },
          text('shown', 'Status {{Status}}'),
          { id: 'again', type: 'Jump', options: { groupId: 'ask' } },
        ],
      },
    ],
    edges: [
      { id: 'e0', from: { eventId: 'ev' }, to: { groupId: 'ask' } },
      { id: 'e1', from: { blockId: 'name' }, to: { groupId: 'call' } },
    ],
  }
}

const shown = (body: unknown) =>
  (chatStepResultSchema.parse(body).messages ?? []).map((m) => (m.content as { plainText?: string }).plainText ?? '')
const utf8 = (header: string | string[] | undefined) => Buffer.from(String(header), 'latin1').toString('utf8')

describe('hostile header values through the service', () => {
  const reachable = HOSTILE_HEADER_VALUES.filter((entry) => !entry.refusedAtTheDoor)

  it.each(reachable.map((entry, i) => [entry.tries, entry, i] as const))(
    '%s: never a 5xx, the flow goes on, no key in any log',
    async (_tries, entry, i) => {
      const logged: string[] = []
      for (const method of ['error', 'warn', 'log', 'info'] as const) {
        vi.spyOn(console, method).mockImplementation(
          (...args: unknown[]) => void logged.push(args.map((arg) => (arg instanceof Error ? `${arg.stack}` : String(arg))).join(' ')),
        )
      }
      logs = captureLogs({ stacks: true })
      const imported = await importOverHttp(svc, headerFlow(`${server.origin}/json?value=1&case=${i}`))
      await publishOverHttp(svc, imported.id)
      const start = await svc.call('POST', `/v1/flows/${imported.id}/startChat`)
      const before = server.received.length

      const res = await svc.call('POST', `/v1/sessions/${start.body.sessionId}/continueChat`, { json: { message: entry.value } })
      expect(res.status).toBe(200)
      expect(res.body.input.id).toBe('name')
      const received = server.received.slice(before).filter((request) => request.query.get('case') === String(i))
      if (entry.arrives === undefined) {
        expect(received).toEqual([])
        expect(shown(res.body)).toEqual(['Status '])
        expect(res.body.logs).toEqual([
          {
            status: 'error',
            description: "Couldn't parse webhook attributes",
            details: { blockId: 'http', type: 'Webhook', reason: 'the Authorization header holds a control character no header can carry' },
          },
        ])
      } else {
        expect(shown(res.body)).toEqual(['Status 200'])
        expect(received).toHaveLength(1)
        expect(utf8(received[0]!.headers['x-visitor'])).toBe(entry.arrives)
        expect(received[0]!.headers['x-injected']).toBeUndefined()
      }
      expect(server.hits('/admin')).toEqual([])

      const stored = await svc.call('GET', `/v1/flows/${imported.id}/results/${start.body.resultId}/logs`, { token: svc.tokens.secret })
      expect(logs.lines.length).toBeGreaterThan(0)
      for (const text of [res.text, stored.text, ...logged, logs.text()]) expect(text).not.toContain(SECRET)
    },
  )
})
