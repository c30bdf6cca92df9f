import { randomBytes } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { RetentionJob } from '../privacy/retention-job'
import { openStore } from '../store/open-store'
import type { Store } from '../store/store'
import { createFiles, DEFAULT_UPLOAD_SETTINGS } from '../uploads/files'
import { benchFlow } from './bench-flow'
import { type DatabaseKind, databaseUrl, freshDatabase, seed } from './service-process'

/**
 * `BENCH_ONLY=retention`: the retention job deleting 100,000 old results (each with a session and
 * two answers) among 1,000 recent ones, in its batches of 1,000, beside a floor measured in the
 * same run: one plain DELETE of the same rows (the database's cascades alone, no batches, no
 * lease, no files). On the embedded database and, with DATABASE_URL, on PostgreSQL. Prints; asserts nothing.
 */
const OLD = Number(process.env.BENCH_RETENTION_RESULTS ?? 100_000)
const RECENT = 1_000
const DAY_MS = 86_400_000

/** Inserts `count` results of `flowId` (ids `prefix1…`), each with a session and two answers, last active `daysAgo` days ago. */
async function insertResults(store: Store, flowId: string, prefix: string, count: number, daysAgo: number): Promise<void> {
  const t = store.tables
  const at = new Date(Date.now() - daysAgo * DAY_MS)
  const version = await store.database.query<{ published_flow_id: string; id: string }>(
    `SELECT v.published_flow_id, v.id FROM ${t.publishedFlowVersions} v JOIN ${t.publishedFlows} p ON p.id = v.published_flow_id
     WHERE p.flow_id = $1 LIMIT 1`,
    [flowId],
  )
  const { published_flow_id, id: versionId } = version[0]!
  const series = `generate_series(1, $2::int) g`
  await store.database.query(
    `INSERT INTO ${t.results} (id, flow_id, variables, is_completed, created_at, updated_at)
     SELECT $3::text || g, $1, jsonb_build_object('v-email', 'visitor' || g || '@example.org'), true, $4, $4 FROM ${series}`,
    [flowId, count, prefix, at],
  )
  await store.database.query(
    `INSERT INTO ${t.sessions} (id, flow_id, result_id, published_flow_id, published_version_id, published_at, state, created_at, last_activity_at, expires_at)
     SELECT 's' || $3::text || g, $1, $3::text || g, $5, $6, $4, '{}', $4, $4, $4 FROM ${series}`,
    [flowId, count, prefix, at, published_flow_id, versionId],
  )
  await store.database.query(
    `INSERT INTO ${t.answers} (result_id, session_id, block_id, group_id, value, created_at)
     SELECT $1::text || g, 's' || $1::text || g, 'b' || n, 'g1', 'answer ' || n, $3 FROM generate_series(1, $2::int) g, generate_series(1, 2) n`,
    [prefix, count, at],
  )
}

async function prepared(kind: DatabaseKind, name: string) {
  const database = await freshDatabase(kind, name)
  const ids = await seed(database.store, { flow: { workspace: 'bench', flow: benchFlow } })
  const store = await openStore(database.store)
  const started = performance.now()
  await insertResults(store, ids.flow, 'old', OLD, 40)
  await insertResults(store, ids.flow, 'new', RECENT, 1)
  const seeding = performance.now() - started
  return { database, store, flowId: ids.flow, seeding }
}

const count = async (store: Store) =>
  Number((await store.database.query<{ n: string }>(`SELECT count(*) AS n FROM ${store.tables.results}`))[0]!.n)

async function benchKind(kind: DatabaseKind): Promise<string[]> {
  const label = kind === 'embedded' ? 'embedded PGlite' : 'PostgreSQL server'
  // The floor: the same rows in one DELETE.
  const floor = await prepared(kind, 'retention_floor')
  let started = performance.now()
  await floor.store.database.query(`DELETE FROM ${floor.store.tables.results} WHERE flow_id = $1 AND created_at < $2 AND updated_at < $2`, [
    floor.flowId,
    new Date(Date.now() - 30 * DAY_MS),
  ])
  const floorMs = performance.now() - started
  const floorLeft = await count(floor.store)
  await floor.store.close()
  await floor.database.cleanup()

  const job = await prepared(kind, 'retention_job')
  await job.store.privacy.setRetentionDays('bench', 30)
  const files = createFiles(DEFAULT_UPLOAD_SETTINGS, job.database.dataDir, randomBytes(32))
  started = performance.now()
  const run = await new RetentionJob({ store: job.store, files, now: () => new Date() }).runOnce()
  const jobMs = performance.now() - started
  const jobLeft = await count(job.store)
  await job.store.close()
  await job.database.cleanup()

  const row = (what: string, ms: number, deleted: number, left: number) =>
    `| ${label} | ${what} | ${deleted} | ${(ms / 1000).toFixed(1)} | ${Math.round(deleted / (ms / 1000))} | ${left} |`
  return [
    row('(floor) one DELETE, cascades only', floorMs, OLD, floorLeft),
    row('retention job (batches of 1,000, lease, files, audit)', jobMs, run?.deleted.results ?? 0, jobLeft),
    `| ${label} | (seeding ${OLD + RECENT} results, sessions, answers) | | ${(job.seeding / 1000).toFixed(1)} | | |`,
  ]
}

export async function benchRetention(): Promise<string> {
  const lines = ['| database | run | results deleted | seconds | results/s | results left |', '|---|---|---|---|---|---|']
  for (const kind of databaseUrl ? (['embedded', 'postgres'] as const) : (['embedded'] as const)) {
    const rows = await benchKind(kind)
    // Each database's figures as they come: the embedded run alone takes minutes.
    console.error(rows.join('\n'))
    lines.push(...rows)
  }
  return lines.join('\n')
}
