import { Agent, fetch as fetchOver } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newToken } from '../../../src/service/ids'
import { openPgDatabase } from '../../../src/service/store/pg-database'
import { databaseUrl, dropSchema, freshSchema } from '../helpers/database'
import { callOverHttp, data, handoffFlow, type OpenStream, openStream, visitorPath } from '../helpers/handoffs'
import { type ServiceProcess, startServiceProcess } from '../helpers/service-process'

/**
 * The service as `WORKERS=2` runs it: two processes behind one port, node:cluster handing each new
 * connection to the next one. Streams are bounded per process and per client network, and the
 * bound is set to one here: so when a client's two streams are both let in, they are held by the
 * two different processes. With the visitor's two streams on both processes and the person's two
 * inbox streams on both, whichever process takes a message, a process that did not take it
 * delivers it too (through PostgreSQL's notifications), each line once and in order. Needs
 * DATABASE_URL: the embedded database is single-process by design.
 */
const schema = freshSchema()
const secret = newToken('secret')
const VISITOR = '198.51.100.7'
const TEAM = '203.0.113.9'
let service: ServiceProcess | undefined
const agents: Agent[] = []

/** A request on a connection of its own: node:cluster hands each new connection to the next worker. */
async function alone(path: string, init: { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal } = {}) {
  const agent = new Agent({ pipelining: 0 })
  agents.push(agent)
  return (await fetchOver(`${service!.url}${path}`, { ...init, dispatcher: agent })) as unknown as Response
}

const call = (method: string, path: string, address: string, body?: unknown, token?: string) =>
  callOverHttp(service!.url, method, path, {
    body,
    headers: { 'x-forwarded-for': address },
    fetch: (url, init) => alone(String(url).slice(service!.url.length), init as never),
    ...(token ? { token } : {}),
  })

/** Opens streams from one client network until two are let in: with one stream per network and process, one on each worker. */
async function oneOnEachWorker(path: string, headers: Record<string, string>): Promise<OpenStream[]> {
  const held: OpenStream[] = []
  const refused: number[] = []
  for (let attempt = 0; attempt < 10 && held.length < 2; attempt++) {
    const stream = await openStream({ app: { request: (at, init) => alone(at, init as never) } }, path, headers)
    if (stream.status === 200) held.push(stream)
    else {
      refused.push(stream.status)
      stream.close()
    }
  }
  expect(held.map((stream) => stream.status)).toEqual([200, 200])
  // Any refusal was the bound of the process already holding this network's stream.
  expect(refused.every((status) => status === 429)).toBe(true)
  return held
}

describe.skipIf(!databaseUrl)('a handed-over conversation with WORKERS=2 on PostgreSQL', () => {
  beforeAll(async () => {
    service = await startServiceProcess({
      DATABASE_URL: databaseUrl!,
      DATABASE_SCHEMA: schema,
      FLOW_SECRET_TOKEN: secret,
      WORKERS: '2',
      // Each side is its own client network, named by the (trusted) proxy header.
      TRUST_PROXY: '1',
      HANDOFF_STREAMS_PER_ADDRESS: '1',
    })
  }, 60_000)
  afterAll(async () => {
    await service?.stop()
    await Promise.all(agents.map((agent) => agent.close().catch(() => undefined)))
    const pg = openPgDatabase(databaseUrl!)
    await dropSchema(pg, schema)
    await pg.close()
  })

  it('delivers every line from either worker to the other side’s streams on both workers, once each and in order', async () => {
    const imported = await call('POST', '/v1/flows/import', TEAM, { workspaceId: 'demo', flow: handoffFlow() }, secret)
    const flowId = imported.body.flow.id as string
    expect((await call('POST', `/v1/flows/${flowId}/publish`, TEAM, {}, secret)).status).toBe(200)
    const ada = (await call('POST', '/v1/tokens', TEAM, { kind: 'agent', agent: { name: 'Ada' } }, secret)).body.value as string

    const inboxes = await oneOnEachWorker('/v1/handoffs/events', { authorization: `Bearer ${ada}`, 'x-forwarded-for': TEAM })
    const started = await call('POST', `/v1/flows/${flowId}/startChat`, VISITOR, {})
    const { sessionId } = started.body
    const handoffId = started.body.clientSideActions[0].handoff.handoffId as string
    const visitors = await oneOnEachWorker(visitorPath(sessionId, 'events'), { 'x-forwarded-for': VISITOR })
    for (const inbox of inboxes) expect(data((await inbox.take(1, (event) => event.type === 'handoff'))[0]!).handoff.id).toBe(handoffId)
    expect((await call('POST', `/v1/handoffs/${handoffId}/claim`, TEAM, {}, ada)).status).toBe(200)

    // Each line on a connection of its own: they alternate between the workers.
    const fromAda = ['One', 'Two', 'Three', 'Four'].map((word) => `${word} from Ada`)
    const fromVisitor = ['One', 'Two', 'Three', 'Four'].map((word) => `${word} from the visitor`)
    for (let i = 0; i < fromAda.length; i++) {
      expect((await call('POST', `/v1/handoffs/${handoffId}/messages`, TEAM, { text: fromAda[i] }, ada)).status).toBe(201)
      const sent = await call('POST', visitorPath(sessionId, 'messages'), VISITOR, { text: fromVisitor[i] })
      expect(sent.status).toBe(201)
    }

    const isMessage = (author: string) => (event: { type: string; data: string }) =>
      event.type === 'message' && (data(event as never).author ?? data(event as never).event?.author) === author
    for (const visitor of visitors) {
      const lines = await visitor.take(fromAda.length, isMessage('agent'), 10_000)
      expect(lines.map((event) => data(event).text)).toEqual(fromAda)
    }
    for (const inbox of inboxes) {
      const lines = await inbox.take(fromVisitor.length, isMessage('visitor'), 10_000)
      expect(lines.map((event) => data(event).event.text)).toEqual(fromVisitor)
    }

    // The person ends it: both of the visitor's streams end with the flow's next step, every event once.
    expect((await call('POST', `/v1/handoffs/${handoffId}/end`, TEAM, {}, ada)).status).toBe(200)
    for (const visitor of visitors) {
      await visitor.rest(10_000)
      expect(visitor.events.at(-1)?.type).toBe('continued')
      const ids = visitor.events.filter((event) => event.id).map((event) => Number(event.id))
      expect(ids).toEqual(ids.map((_, index) => index + 1))
    }
    for (const inbox of inboxes) inbox.close()
  })
})
