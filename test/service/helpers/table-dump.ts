import type { Database } from '../../../src/service/store/database'

/** Every row of every table of a schema as JSON text: what a leaked backup would show. */
export async function dumpSchema(database: Database, schema: string): Promise<string> {
  const tables = await database.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
    [schema],
  )
  const parts: string[] = []
  for (const { table_name } of tables) {
    const rows = await database.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${schema}"."${table_name}" t`)
    parts.push(`${table_name}: ${rows.map((r) => r.row).join('\n')}`)
  }
  return parts.join('\n')
}
