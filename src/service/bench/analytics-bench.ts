import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { addDays } from '../../protocol/analytics'
import { flowAnalytics } from '../flows/flow-analytics'
import { openStore } from '../store/open-store'
import type { Store } from '../store/store'
import { benchFlow } from './bench-flow'
import { type DatabaseKind, databaseUrl, freshDatabase, seed } from './service-process'

/**
 * `BENCH_ONLY=analytics`: a flow's drop-off figures (GET /v1/flows/{id}/analytics's work, the
 * flow's layout included) over 100,000 of its results started in the last 30 days, with about
 * 150,000 answers across three groups, beside 20,000 results of another flow; next to a floor
 * measured in the same run: one plain count of the same results. Median of 5 runs after one
 * warm-up, before and after the database's statistics are gathered (ANALYZE: PostgreSQL's
 * autovacuum does it by itself; the embedded database has no autovacuum). On the embedded
 * database and, with DATABASE_URL, on PostgreSQL. Prints, with the load average; asserts nothing.
 */
const RESULTS = Number(process.env.BENCH_ANALYTICS_RESULTS ?? 100_000)
const OTHER = 20_000
const DAYS = 30
const RUNS = 5

/**
 * `count` results of `flowId` spread over the last 30 days: result g answered the first g % 4 of
 * blocks b1…b3 (groups g1…g3), ten seconds apart; those that answered all three completed, g % 300
 * seconds after their start.
 */
async function insertResults(store: Store, flowId: string, prefix: string, count: number): Promise<void> {
  const t = store.tables
  const now = Date.now()
  await store.database.query(
    `INSERT INTO ${t.results} (id, flow_id, variables, is_completed, created_at, updated_at, completed_at, version)
     SELECT $3::text || g, $1, '{}', g % 4 = 3, c, c, CASE WHEN g % 4 = 3 THEN c + (g % 300) * interval '1 second' END, 1
     FROM generate_series(1, $2::int) g, LATERAL (SELECT $4::timestamptz - (g % ${DAYS * 24 * 60}) * interval '1 minute' AS c) x`,
    [flowId, count, prefix, new Date(now - 60_000)],
  )
  await store.database.query(
    `INSERT INTO ${t.answers} (result_id, session_id, block_id, group_id, value, created_at)
     SELECT r.id, 's' || r.id, 'b' || n, 'g' || n, 'answer ' || n, r.created_at + n * interval '10 seconds'
     FROM ${t.results} r, generate_series(1, 3) n
     WHERE r.flow_id = $1 AND n <= (substr(r.id, length($2::text) + 1)::int % 4)`,
    [flowId, prefix],
  )
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  await run()
  const times: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now()
    await run()
    times.push(performance.now() - started)
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!
}

async function benchKind(kind: DatabaseKind): Promise<string[]> {
  const label = kind === 'embedded' ? 'embedded PGlite' : 'PostgreSQL server'
  const database = await freshDatabase(kind, 'analytics')
  const ids = await seed(database.store, { flow: { workspace: 'bench', flow: benchFlow }, other: { workspace: 'bench', flow: benchFlow } })
  const store = await openStore(database.store)
  try {
    let started = performance.now()
    await insertResults(store, ids.flow, 'r', RESULTS)
    await insertResults(store, ids.other, 'o', OTHER)
    const seeding = performance.now() - started
    const flow = (await store.flows.findById(ids.flow))!
    const to = new Date().toISOString().slice(0, 10)
    const request = { version: null, from: addDays(to, -DAYS), to }
    const scope = [ids.flow, `${request.from}T00:00:00Z`, `${addDays(to, 1)}T00:00:00Z`]
    let figures = await flowAnalytics(store, flow, request)
    const floor = () =>
      store.database.query(
        `SELECT count(*) FROM ${store.tables.results} WHERE flow_id = $1 AND created_at >= $2 AND created_at < $3`,
        scope,
      )
    const rows: string[] = []
    const row = (what: string, ms: number) =>
      `| ${label} | ${what} | ${figures.started} | ${ms.toFixed(1)} | ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')} |`
    rows.push(row('(floor) count(*) of the same results', await timed(floor)))
    rows.push(row('analytics, before ANALYZE', await timed(() => flowAnalytics(store, flow, request))))
    started = performance.now()
    await store.database.query(`ANALYZE ${store.tables.results}`)
    await store.database.query(`ANALYZE ${store.tables.answers}`)
    const analyze = performance.now() - started
    rows.push(row('(floor) count(*), after ANALYZE', await timed(floor)))
    rows.push(row('analytics, after ANALYZE', await timed(() => flowAnalytics(store, flow, request))))
    figures = await flowAnalytics(store, flow, request)
    rows.push(
      `| ${label} | (seeding ${RESULTS + OTHER} results and their answers: ${(seeding / 1000).toFixed(1)} s; ANALYZE ${analyze.toFixed(0)} ms) | | | |`,
    )
    return rows
  } finally {
    await store.close()
    await database.cleanup()
  }
}

export async function benchAnalytics(): Promise<string> {
  const lines = ['| database | run | conversations counted | median ms | load average (1, 5, 15 min) |', '|---|---|---|---|---|']
  for (const kind of databaseUrl ? (['embedded', 'postgres'] as const) : (['embedded'] as const)) {
    const rows = await benchKind(kind)
    console.error(rows.join('\n'))
    lines.push(...rows)
  }
  return lines.join('\n')
}
