import type { Store } from '../../../src/service/store/store'

/** Every row of every table but the rate limits' bookkeeping, for "nothing changed" assertions. */
export async function snapshotTables(store: Store): Promise<string> {
  const t = store.tables
  const tables = [
    t.workspaces,
    t.apiTokens,
    t.flows,
    t.publishedFlows,
    t.publishedFlowVersions,
    t.results,
    t.answers,
    t.sessions,
    t.idempotencyKeys,
  ]
  const dump: Record<string, unknown[]> = {}
  for (const table of tables) {
    dump[table] = await store.database.query(`SELECT * FROM ${table} ORDER BY 1, 2`)
  }
  return JSON.stringify(dump)
}
