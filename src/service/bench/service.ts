/**
 * `npm run bench:service`: the reference service side by side with two floors measured in the
 * same run, on the embedded database and (with DATABASE_URL) on PostgreSQL. This process only
 * generates load; every target runs in a process of its own.
 *
 * (a) bare node:http answering a fixed body; (b) a minimal handler doing one continueChat's
 * durable work (one transaction: lock the session row, update it, insert the answer); (c) the
 * service with WORKERS=1 and, on PostgreSQL, WORKERS=2: each connection starts a chat and answers
 * it, over and over, as its own visitor. Then another tenant's startChat latency, quiet and while
 * one tenant's ten visitors answer a flow whose code never ends, and while an anonymous client
 * draws QR codes or uploads files it never sends (abuse.ts).
 *
 * With DATABASE_URL, also the live part of handed-over conversations across two processes
 * (handoff-bench.ts; `BENCH_ONLY=handoff` runs it alone). `BENCH_ONLY=retention` runs the retention
 * job on 100,000 old results beside one plain DELETE of them (retention-bench.ts). `BENCH_ONLY=analytics`
 * reads a flow's drop-off figures over 100,000 results beside a plain count of them (analytics-bench.ts).
 *
 * Options (environment): BENCH_SECONDS (default 10), DATABASE_URL, BENCH_ONLY. Asserts nothing: it prints.
 */
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import autocannon from 'autocannon'
import { ABUSE_TABLE_HEAD, benchAbuse } from './abuse'
import { benchAnalytics } from './analytics-bench'
import { benchFlow, noisyFlow } from './bench-flow'
import { benchHandoffs } from './handoff-bench'
import {
  bareRequests,
  chatRequests,
  type Figures,
  MINIMAL_SESSIONS,
  measure,
  minimalRequests,
  percentiles,
  sequentialLatencies,
} from './load'
import { benchRetention } from './retention-bench'
import { type DatabaseKind, databaseUrl, freshDatabase, spawnTarget, withService } from './service-process'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = [10, 64]
const NOISY_CONNECTIONS = 10
/** Quiet and noisy samples alternate, so load elsewhere on the machine weighs on both alike. */
const LATENCY_ROUNDS = 3
const LATENCY_SAMPLES_PER_ROUND = 50
const TARGETS = join(import.meta.dirname, 'targets.ts')

interface Row {
  database: string
  target: string
  connections: number
  figures: Figures | undefined
  note?: string
}

const TENANTS = {
  quiet: { workspace: 'quiet', flow: benchFlow },
  noisy: { workspace: 'noisy', flow: noisyFlow },
}

const serviceEnv = (workers: number) => ({
  PORT: '0',
  WORKERS: String(workers),
  TRUST_PROXY: '1',
  // Rate limits stay on (each visitor draws from its own bucket), far above what the bench sends.
  RATE_LIMIT_CHAT_PER_MINUTE: '10000000',
  RATE_LIMIT_CHAT_BURST: '10000000',
})

const serviceOf = (workers: number) => ({ name: `service${workers}`, env: serviceEnv(workers), flows: TENANTS })

async function benchDatabase(kind: DatabaseKind): Promise<{ rows: Row[]; noisy: string }> {
  const label = kind === 'embedded' ? 'embedded PGlite' : 'PostgreSQL server'
  const rows: Row[] = []

  const minimalDb = await freshDatabase(kind, 'minimal')
  const minimal = await spawnTarget(TARGETS, ['minimal'], minimalDb.env)
  for (const connections of CONNECTIONS) {
    const figures = await measure(minimal.url, minimalRequests(MINIMAL_SESSIONS), connections, seconds)
    rows.push({
      database: label,
      target: '(b) minimal: one transaction locking, updating the session, inserting the answer',
      connections,
      figures,
    })
  }
  await minimal.stop()
  await minimalDb.cleanup()

  for (const workers of kind === 'embedded' ? [1, 2] : [1, 2]) {
    if (kind === 'embedded' && workers > 1) {
      rows.push({
        database: label,
        target: '(c) reference service, WORKERS=2',
        connections: 0,
        figures: undefined,
        note: 'refused: the embedded database is single-process',
      })
      continue
    }
    await withService(kind, serviceOf(workers), async (url, flows) => {
      for (const connections of CONNECTIONS) {
        const figures = await measure(url, chatRequests(flows.quiet), connections, seconds)
        rows.push({ database: label, target: `(c) reference service, WORKERS=${workers}`, connections, figures })
      }
    })
  }
  return { rows, noisy: await benchNoisyNeighbour(kind, label) }
}

/** Another tenant's startChat, one after the other: quiet, then while one tenant's code loops. */
export async function benchNoisyNeighbour(kind: DatabaseKind, label: string): Promise<string> {
  return withService(kind, serviceOf(1), async (url, flows) => {
    const startQuiet = async () => {
      const response = await fetch(`${url}/v1/flows/${flows.quiet}/startChat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.1' },
        body: '{}',
      })
      if (response.status !== 200) throw new Error(`quiet startChat answered ${response.status}`)
      await response.arrayBuffer()
    }
    await sequentialLatencies(startQuiet, 20) // warm-up
    const quietSamples: number[] = []
    const noisySamples: number[] = []
    for (let round = 0; round < LATENCY_ROUNDS; round++) {
      quietSamples.push(...(await sequentialLatencies(startQuiet, LATENCY_SAMPLES_PER_ROUND)))
      // Ten visitors of one tenant, each answering a step whose code never ends.
      let stopped!: () => void
      const done = new Promise<void>((resolve) => (stopped = resolve))
      const noise = autocannon({ url, connections: NOISY_CONNECTIONS, duration: 3600, requests: chatRequests(flows.noisy) }, () =>
        stopped(),
      )
      await new Promise((resolve) => setTimeout(resolve, 2_000))
      noisySamples.push(...(await sequentialLatencies(startQuiet, LATENCY_SAMPLES_PER_ROUND)))
      noise.stop()
      await done
    }
    const [quiet, noisy] = [percentiles(quietSamples), percentiles(noisySamples)]
    const ratio = (noisy.p50 / quiet.p50).toFixed(2)
    return (
      `${label}: another tenant's startChat p50/p99 ${quiet.p50}/${quiet.p99} ms quiet, ` +
      `${noisy.p50}/${noisy.p99} ms while one tenant runs endless code on ${NOISY_CONNECTIONS} connections (p50 ${ratio}×)`
    )
  })
}

function table(rows: Row[]): string {
  const lines = ['| database | target | connections | requests/s | p50 ms | p99 ms | failed |', '|---|---|---:|---:|---:|---:|---:|']
  for (const row of rows) {
    const f = row.figures
    lines.push(
      f
        ? `| ${row.database} | ${row.target} | ${row.connections} | ${f.requestsPerSecond} | ${f.p50} | ${f.p99} | ${f.failures} |`
        : `| ${row.database} | ${row.target} | — | ${row.note} | | | |`,
    )
  }
  return lines.join('\n')
}

async function main(): Promise<void> {
  const rows: Row[] = []
  const noisy: string[] = []
  const abuse: string[] = [...ABUSE_TABLE_HEAD]
  const bare = await spawnTarget(TARGETS, ['bare'], {})
  for (const connections of CONNECTIONS) {
    rows.push({
      database: '—',
      target: '(a) bare node:http, fixed JSON body',
      connections,
      figures: await measure(bare.url, bareRequests(), connections, seconds),
    })
  }
  await bare.stop()
  for (const kind of databaseUrl ? (['embedded', 'postgres'] as const) : (['embedded'] as const)) {
    const result = await benchDatabase(kind)
    rows.push(...result.rows)
    noisy.push(result.noisy)
    abuse.push(...(await benchAbuse(kind, kind === 'embedded' ? 'embedded PGlite' : 'PostgreSQL server')))
  }
  console.log(
    `\n${seconds}s per run, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}\n`,
  )
  console.log(table(rows))
  console.log(`\n${noisy.join('\n')}`)
  console.log(`\nAnother tenant's startChat, quiet and under an anonymous attack:\n\n${abuse.join('\n')}`)
  if (databaseUrl) console.log(`\nConversations handed to a person:\n\n${await benchHandoffs()}`)
  if (!databaseUrl) console.log('\nSet DATABASE_URL to bench a PostgreSQL server as well (WORKERS=2 and the handoff run need it).')
}

/** `BENCH_ONLY=handoff`: the handoff run alone. */
export async function handoffOnly(): Promise<void> {
  console.log(await benchHandoffs())
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const only = process.env.BENCH_ONLY
  if (only === 'handoff') await handoffOnly()
  else if (only === 'retention') console.log(await benchRetention())
  else if (only === 'analytics') console.log(await benchAnalytics())
  else await main()
}
