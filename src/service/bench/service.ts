/**
 * `npm run bench:service`: the reference service side by side with two floors measured in the
 * same run, on the embedded database and (with DATABASE_URL) on PostgreSQL. This process only
 * generates load; every target runs in a process of its own.
 *
 * (a) bare node:http answering a fixed body; (b) a minimal handler doing one continueChat's
 * durable work (one transaction: lock the session row, update it, insert the answer); (c) the
 * service with WORKERS=1 and, on PostgreSQL, WORKERS=2: each connection starts a chat and answers
 * it, over and over, as its own visitor. Then another tenant's startChat latency, quiet and while
 * one tenant's ten visitors answer a flow whose code never ends.
 *
 * Options (environment): BENCH_SECONDS (default 10), DATABASE_URL. Asserts nothing: it prints.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { cpus, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import autocannon from 'autocannon'
import { importFlowSchema } from '../../protocol/index'
import { importFlow, publishFlow } from '../flows/flow-service'
import { openStore, type OpenStoreOptions } from '../store/open-store'
import { benchFlow, noisyFlow } from './bench-flow'
import {
  bareRequests,
  chatRequests,
  type Figures,
  measure,
  MINIMAL_SESSIONS,
  minimalRequests,
  percentiles,
  sequentialLatencies,
} from './load'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const CONNECTIONS = [10, 64]
const NOISY_CONNECTIONS = 10
/** Quiet and noisy samples alternate, so load elsewhere on the machine weighs on both alike. */
const LATENCY_ROUNDS = 3
const LATENCY_SAMPLES_PER_ROUND = 50
const databaseUrl = process.env.DATABASE_URL || undefined
const TARGETS = join(import.meta.dirname, 'targets.ts')
const MAIN = join(import.meta.dirname, '../main.ts')

interface Row {
  database: string
  target: string
  connections: number
  figures: Figures | undefined
  note?: string
}

interface Target {
  url: string
  stop(): Promise<void>
}

/** Starts `file` with tsx in a process of its own; resolves once it says where it listens. */
function spawnTarget(file: string, args: string[], env: Record<string, string>): Promise<Target> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    })
  return new Promise((resolve, reject) => {
    let out = ''
    const listening = (chunk: Buffer) => {
      out += chunk.toString()
      const port = /listening (?:on http:\/\/localhost:)?(\d+)/.exec(out)?.[1]
      if (!port) return
      // From here on its log (an access line per request) is read and dropped, as a collector would.
      child.stdout!.off('data', listening).resume()
      resolve({ url: `http://127.0.0.1:${port}`, stop })
    }
    child.stdout!.on('data', listening)
    child.once('exit', (code) => reject(new Error(`${file} ${args.join(' ')} exited with ${code}: ${out}`)))
  })
}

/** A database for one target: a fresh data directory, or a fresh schema on the server. */
async function freshDatabase(
  kind: 'embedded' | 'postgres',
  name: string,
): Promise<{ env: Record<string, string>; store: OpenStoreOptions; cleanup: () => Promise<void> }> {
  if (kind === 'postgres') {
    const schema = `bench_${name}_${process.pid}`
    return { env: { DATABASE_URL: databaseUrl!, DATABASE_SCHEMA: schema }, store: { databaseUrl, schema }, cleanup: async () => undefined }
  }
  const dataDir = await mkdtemp(join(tmpdir(), `flow-bench-${name}-`))
  return {
    // Blank, not inherited: the embedded run must not pick up the server the bench was given.
    env: { DATA_DIR: dataDir, DATABASE_URL: '' },
    store: { dataDir: join(dataDir, 'pglite') },
    cleanup: () => rm(dataDir, { recursive: true, force: true }),
  }
}

/** Imports and publishes the quiet tenant's flow and the noisy tenant's, straight into the store. */
async function seed(options: OpenStoreOptions): Promise<{ quiet: string; noisy: string }> {
  const store = await openStore(options)
  try {
    const now = new Date()
    const publish = async (workspaceId: string, flow: unknown) => {
      await store.workspaces.ensure(workspaceId, workspaceId, now)
      const record = await importFlow(store, { workspaceId, flow: importFlowSchema.parse(flow), now })
      await publishFlow(store, { flowId: record.id, now, authorize: () => undefined })
      return record.id
    }
    return { quiet: await publish('quiet', benchFlow), noisy: await publish('noisy', noisyFlow) }
  } finally {
    await store.close()
  }
}

const serviceEnv = (workers: number) => ({
  PORT: '0',
  WORKERS: String(workers),
  TRUST_PROXY: '1',
  // Rate limits stay on (each visitor draws from its own bucket), far above what the bench sends.
  RATE_LIMIT_CHAT_PER_MINUTE: '10000000',
  RATE_LIMIT_CHAT_BURST: '10000000',
})

async function withService<T>(
  kind: 'embedded' | 'postgres',
  workers: number,
  run: (url: string, flows: { quiet: string; noisy: string }) => Promise<T>,
) {
  const database = await freshDatabase(kind, `service${workers}`)
  try {
    const flows = await seed(database.store)
    const service = await spawnTarget(MAIN, [], { ...database.env, ...serviceEnv(workers) })
    try {
      return await run(service.url, flows)
    } finally {
      await service.stop()
    }
  } finally {
    if (kind === 'postgres') await dropSchema(database.store.schema!)
    await database.cleanup()
  }
}

async function dropSchema(schema: string): Promise<void> {
  const store = await openStore({ databaseUrl, schema })
  await store.database.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
  await store.close()
}

async function benchDatabase(kind: 'embedded' | 'postgres'): Promise<{ rows: Row[]; noisy: string }> {
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
    await withService(kind, workers, async (url, flows) => {
      for (const connections of CONNECTIONS) {
        const figures = await measure(url, chatRequests(flows.quiet), connections, seconds)
        rows.push({ database: label, target: `(c) reference service, WORKERS=${workers}`, connections, figures })
      }
    })
  }
  return { rows, noisy: await benchNoisyNeighbour(kind, label) }
}

/** Another tenant's startChat, one after the other: quiet, then while one tenant's code loops. */
export async function benchNoisyNeighbour(kind: 'embedded' | 'postgres', label: string): Promise<string> {
  return withService(kind, 1, async (url, flows) => {
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
  }
  console.log(
    `\n${seconds}s per run, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}\n`,
  )
  console.log(table(rows))
  console.log(`\n${noisy.join('\n')}`)
  if (!databaseUrl) console.log('\nSet DATABASE_URL to bench a PostgreSQL server as well (WORKERS=2 needs it).')
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
