/**
 * `npm run bench:service`: loopback load on startChat + continueChat against the reference service,
 * side by side with a bare Node http server answering a fixed JSON body (the ceiling for this
 * machine). Prints requests/s and p50/p99 latency; asserts nothing, so it never fails on timing.
 *
 * Options (environment): BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 10),
 * DATABASE_URL (bench a real PostgreSQL server instead of the embedded one).
 */
import { createServer } from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import { cpus, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { loadConfig } from '../config'
import { startServer } from '../main'
import { newToken } from '../ids'
import { benchFlow } from './bench-flow'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10)

interface Session {
  sessionId: string
}

interface Figures {
  name: string
  requestsPerSecond: number
  p50: number
  p99: number
  errors: number
  non2xx: number
}

async function run(name: string, options: autocannon.Options): Promise<Figures> {
  const result = await autocannon({ duration: seconds, connections, ...options })
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  }
}

/** The fixed body: a typical step result (two text bubbles and a text input). */
const fixedBody = JSON.stringify({
  messages: [
    { id: 'm1', type: 'text', content: { richText: [{ type: 'p', children: [{ text: 'Thanks!' }] }], plainText: 'Thanks!' } },
    { id: 'm2', type: 'text', content: { richText: [{ type: 'p', children: [{ text: 'Anything else?' }] }], plainText: 'Anything else?' } },
  ],
  input: { id: 'i1', type: 'text input', options: { labels: { placeholder: 'Type your answer…', button: 'Send' } } },
  progress: 50,
})

async function benchCeiling(): Promise<Figures> {
  const server = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(fixedBody)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  try {
    return await run('bare node:http, fixed JSON (ceiling)', {
      url: `http://127.0.0.1:${port}`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hello' }),
    })
  } finally {
    server.close()
  }
}

async function benchService(): Promise<Figures> {
  const dataDir = await mkdtemp(join(tmpdir(), 'flow-bench-'))
  const secret = newToken('secret')
  const config = {
    ...loadConfig({ ...process.env, PORT: '0', DATA_DIR: dataDir, FLOW_SECRET_TOKEN: secret }),
    rateLimits: { chat: { perMinute: 0, burst: 1 }, management: { perMinute: 0, burst: 1 } },
  }
  const server = await startServer(config)
  try {
    const auth = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }
    const imported = await fetch(`${server.url}/v1/flows/import`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ workspaceId: 'demo', flow: benchFlow }),
    }).then((r) => r.json() as Promise<{ flow: { id: string } }>)
    const flowId = imported.flow.id
    const published = await fetch(`${server.url}/v1/flows/${flowId}/publish`, { method: 'POST', headers: auth })
    if (!published.ok) throw new Error(`publish failed: ${published.status} ${await published.text()}`)

    // Each connection repeats: start a chat, answer it once. Both requests count.
    return await run(`reference service, ${config.databaseUrl ? 'PostgreSQL server' : 'embedded PGlite'}`, {
      url: server.url,
      requests: [
        {
          method: 'POST',
          path: `/v1/flows/${flowId}/startChat`,
          headers: { 'content-type': 'application/json' },
          body: '{}',
          onResponse: (_status, body, context) => {
            (context as Session).sessionId = (JSON.parse(body) as Session).sessionId
          },
        },
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ message: 'Ada' }),
          setupRequest: (request, context) => ({
            ...request,
            path: `/v1/sessions/${(context as Session).sessionId}/continueChat`,
          }),
        },
      ],
    })
  } finally {
    await server.close()
    await rm(dataDir, { recursive: true, force: true })
  }
}

const figures = [await benchService(), await benchCeiling()]
console.log(`\n${seconds}s per run, ${connections} connections, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}\n`)
console.log('| target | requests/s | p50 ms | p99 ms | errors | non-2xx |')
console.log('|---|---:|---:|---:|---:|---:|')
for (const f of figures) {
  console.log(`| ${f.name} | ${f.requestsPerSecond} | ${f.p50} | ${f.p99} | ${f.errors} | ${f.non2xx} |`)
}
