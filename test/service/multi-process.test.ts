import { type ChildProcess, spawn } from 'node:child_process'
import { get } from 'node:http'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newToken } from '../../src/service/ids'
import { openPgDatabase } from '../../src/service/store/pg-database'
import { databaseUrl, dropSchema, freshSchema } from './helpers/database'
import { createStreamParser } from '../../src/protocol/stream'
import { aiFlow } from './helpers/ai-flows'
import { greetingFlow } from './helpers/flows'
import { parseMetrics, total } from './helpers/metrics'
import { type OpenAiTestServer, startOpenAiTestServer } from './helpers/openai-test-server'

/**
 * The service as operators run it: `WORKERS=2` (two processes on one port) and a second instance
 * on another port, all on one PostgreSQL server. Idempotency and rate limits must hold across
 * every process. Needs DATABASE_URL: the embedded database is single-process by design.
 */
const MAIN = join(import.meta.dirname, '../../src/service/main.ts')
const schema = freshSchema()
const secret = newToken('secret')
const METRICS_TOKEN = 'metrics-token-of-the-processes'
const BURST = 20
const processes: ChildProcess[] = []
let cluster = ''
let single = ''
let ai: OpenAiTestServer | undefined

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Starts `main.ts` and resolves with its address once it says it listens. */
async function service(env: Record<string, string>): Promise<string> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
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
      METRICS_TOKEN,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  processes.push(child)
  await new Promise<void>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes('listening on')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`service exited with ${code}: ${out}`)))
  })
  return `http://127.0.0.1:${port}`
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
    await Promise.all(
      processes.map((child) => new Promise((resolve) => (child.exitCode === null ? (child.once('exit', resolve), child.kill('SIGTERM')) : resolve(null)))),
    )
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
})
