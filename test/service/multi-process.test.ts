import { randomBytes } from 'node:crypto'
import { get } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createStreamParser } from '../../src/protocol/stream'
import { newToken } from '../../src/service/ids'
import { openPgDatabase } from '../../src/service/store/pg-database'
import { aiFlow } from './helpers/ai-flows'
import { databaseUrl, dropSchema, freshSchema } from './helpers/database'
import { greetingFlow } from './helpers/flows'
import { parseMetrics, total } from './helpers/metrics'
import { type OpenAiTestServer, startOpenAiTestServer } from './helpers/openai-test-server'
import { type ServiceProcess, startServiceProcess } from './helpers/service-process'
import { until } from './helpers/until'
import { startWebhookReceiver } from './helpers/webhook-receiver'

/**
 * The service as operators run it: `WORKERS=2` (two processes on one port) and a second instance
 * on another port, all on one PostgreSQL server. Idempotency and rate limits must hold across
 * every process. Needs DATABASE_URL: the embedded database is single-process by design.
 */
const schema = freshSchema()
const secret = newToken('secret')
const METRICS_TOKEN = 'metrics-token-of-the-processes'
const BURST = 20
const CREDENTIALS_KEY = randomBytes(32).toString('hex')
const processes: ServiceProcess[] = []
let cluster = ''
let single = ''
let ai: OpenAiTestServer | undefined

/** Starts `main.ts` on the test's schema and resolves with its address once it says it listens. */
async function service(env: Record<string, string>): Promise<string> {
  const started = await startServiceProcess({
    DATABASE_URL: databaseUrl!,
    DATABASE_SCHEMA: schema,
    FLOW_SECRET_TOKEN: secret,
    RATE_LIMIT_CHAT_PER_MINUTE: '1',
    RATE_LIMIT_CHAT_BURST: String(BURST),
    // Each test is its own visitor, named by the (trusted) proxy header.
    TRUST_PROXY: '1',
    // AI blocks answer from the test's own OpenAI-compatible server.
    OPENAI_API_KEY: 'sk-processes',
    OPENAI_BASE_URL: ai!.baseUrl,
    OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
    // Every process of one service has the same key (it seals the webhooks' signing secrets).
    CREDENTIALS_KEY: CREDENTIALS_KEY,
    METRICS_TOKEN,
    ...env,
  })
  processes.push(started)
  return started.url
}

let visitor = '198.51.100.1'
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': visitor, ...headers },
    body: JSON.stringify(body),
  })

describe.skipIf(!databaseUrl)('several service processes on one PostgreSQL server', () => {
  beforeAll(async () => {
    ai = await startOpenAiTestServer()
    // One after the other: the first creates the schema, the second finds it migrated.
    cluster = await service({ WORKERS: '2' })
    single = await service({ WORKERS: '1' })
  }, 60_000)
  afterAll(async () => {
    await Promise.all(processes.map((process) => process.stop()))
    await ai?.close()
    const pg = openPgDatabase(databaseUrl!)
    await dropSchema(pg, schema)
    await pg.close()
  })

  it('apply an answer once, and answer its every retry with the same bytes, whichever process gets it', async () => {
    const auth = { authorization: `Bearer ${secret}` }
    const imported = await (await post(`${cluster}/v1/flows/import`, { workspaceId: 'demo', flow: greetingFlow() }, auth)).json()
    const flowId = imported.flow.id as string
    expect((await post(`${single}/v1/flows/${flowId}/publish`, {}, auth)).status).toBe(200)
    const started = await (await post(`${single}/v1/flows/${flowId}/startChat`, {})).json()

    // Eight copies of one answer at once, spread over the cluster's two workers and the other instance.
    const key = { 'Idempotency-Key': 'answer-1' }
    const url = (base: string) => `${base}/v1/sessions/${started.sessionId}/continueChat`
    const replies = await Promise.all(
      [cluster, single, cluster, single, cluster, single, cluster, single].map((base) => post(url(base), { message: 'Ada' }, key)),
    )
    const bodies = await Promise.all(replies.map((reply) => reply.text()))
    expect(replies.map((reply) => reply.status)).toEqual(Array(8).fill(200))
    expect(new Set(bodies).size).toBe(1)
    expect(JSON.parse(bodies[0]!).input.type).toBe('number input')

    const next = await post(url(cluster), { message: '36' }, { 'Idempotency-Key': 'answer-2' })
    expect((await next.json()).messages[0].content.plainText).toBe('Thanks Ada, bye!')
    // A late retry of the first answer still gets its own response, from any process.
    expect(await (await post(url(single), { message: 'Ada' }, key)).text()).toBe(bodies[0])
  })

  it('draw every chat request of one client from the same rate-limit bucket', async () => {
    const auth = { authorization: `Bearer ${secret}` }
    const imported = await (await post(`${single}/v1/flows/import`, { workspaceId: 'demo', flow: greetingFlow() }, auth)).json()
    const flowId = imported.flow.id as string
    await post(`${single}/v1/flows/${flowId}/publish`, {}, auth)
    visitor = '198.51.100.2'
    const statuses: number[] = []
    for (let i = 0; i < 3 * BURST; i++) {
      statuses.push((await post(`${i % 2 === 0 ? cluster : single}/v1/flows/${flowId}/startChat`, {})).status)
    }
    // One bucket for the visitor, whichever process and worker served each request.
    expect(statuses).toEqual([...Array(BURST).fill(200), ...Array(2 * BURST).fill(429)])
  })

  it("sum every worker's figures at /metrics, whichever worker is asked", async () => {
    // Each request on a connection of its own: node:cluster hands every connection to the next worker.
    const fetchAlone = (path: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        get(`${cluster}${path}`, { agent: false, headers }, (response) => {
          let body = ''
          response.on('data', (chunk: Buffer) => (body += chunk))
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
        }).on('error', reject)
      })
    const served = async () => {
      const scrape = await fetchAlone('/metrics', { authorization: `Bearer ${METRICS_TOKEN}` })
      expect(scrape.status).toBe(200)
      return total(parseMetrics(scrape.body), 'flow_http_requests_total', { route: '/v1/health/live', status: '200' })
    }
    const before = await served()
    for (let i = 0; i < 20; i++) expect((await fetchAlone('/v1/health/live')).status).toBe(200)
    // Scrapes land on either worker; each answers for both.
    for (let i = 0; i < 4; i++) expect(await served()).toBe(before + 20)
  })

  it('stream an AI answer with one provider call, followed from every process, and go on from any of them', async () => {
    visitor = '198.51.100.3'
    const server = ai!
    const auth = { authorization: `Bearer ${secret}` }
    const imported = await (await post(`${cluster}/v1/flows/import`, { workspaceId: 'demo', flow: aiFlow() }, auth)).json()
    const flowId = imported.flow.id as string
    await post(`${single}/v1/flows/${flowId}/publish`, {}, auth)
    const started = await (await post(`${single}/v1/flows/${flowId}/startChat`, { isStreamEnabled: true })).json()
    const session = `/v1/sessions/${started.sessionId}`
    expect((await (await post(`${cluster}${session}/continueChat`, { message: 'Hello' })).json()).clientSideActions[0].type).toBe('stream')

    server.script({ parts: ['Across', ' every', ' process'], pauseAfter: 1 })
    const before = server.received.length
    const reads = [cluster, single, cluster, single].map(async (base) => {
      const parser = createStreamParser()
      const parts = [...parser.push(await (await post(`${base}${session}/streamMessage`, {})).text()), ...parser.end()]
      return parts.map((part) => (part.type === 'text' ? part.text : `<${part.type}>`)).join('')
    })
    for (let i = 0; i < 200 && server.received.length === before; i++) await new Promise((resolve) => setTimeout(resolve, 25))
    await new Promise((resolve) => setTimeout(resolve, 500))
    server.release()
    expect(await Promise.all(reads)).toEqual(Array(4).fill('Across every process<finish>'))
    expect(server.received.length).toBe(before + 1)
    expect(server.received.at(-1)!.authorization).toBe('Bearer sk-processes')

    const next = await (await post(`${single}${session}/continueChat`, {})).json()
    expect(next.messages[0].content.plainText).toBe('17 tokens for "Across every process"')
  })

  it('send each completion webhook once, whichever process completed the result and whichever sends it', async () => {
    visitor = '198.51.100.4'
    const receiver = await startWebhookReceiver()
    try {
      const auth = { authorization: `Bearer ${secret}` }
      const imported = await (await post(`${cluster}/v1/flows/import`, { workspaceId: 'demo', flow: greetingFlow() }, auth)).json()
      const flowId = imported.flow.id as string
      await post(`${single}/v1/flows/${flowId}/publish`, {}, auth)
      const set = await fetch(`${cluster}/v1/flows/${flowId}/webhook`, {
        method: 'PUT',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiver.url }),
      })
      expect(set.status).toBe(200)
      const bases = [cluster, single]
      for (let n = 0; n < 6; n++) {
        const started = await (await post(`${bases[n % 2]}/v1/flows/${flowId}/startChat`, {})).json()
        for (const message of [`Visitor ${n}`, '30'])
          await post(`${bases[(n + 1) % 2]}/v1/sessions/${started.sessionId}/continueChat`, { message })
      }
      const deliveries = async () =>
        (await (await fetch(`${single}/v1/flows/${flowId}/webhook-deliveries`, { headers: auth })).json()).deliveries as {
          status: string
          attempts: unknown[]
        }[]
      let listed = await deliveries()
      while (listed.length < 6 || listed.some((delivery) => delivery.status !== 'delivered')) {
        await until(() => receiver.calls.length >= 6)
        listed = await deliveries()
      }
      expect(listed.map((delivery) => delivery.attempts.length)).toEqual(Array(6).fill(1))
      expect(receiver.calls).toHaveLength(6)
      expect(new Set(receiver.calls.map((call) => call.headers['webhook-id'])).size).toBe(6)
    } finally {
      await receiver.close()
    }
  }, 60_000)
})
