import { afterEach, describe, expect, it } from 'vitest'
import { LATEST_SCHEMA_VERSION } from '../../../src/service/store/migrations'
import { createStore } from '../../../src/service/store/store'
import { dropSchema, freshSchema, useTestDatabase } from '../helpers/database'

const db = useTestDatabase()
const schemas: string[] = []
afterEach(async () => {
  for (const schema of schemas.splice(0)) await dropSchema(db.database, schema)
})

const tablesIn = (schema: string) =>
  db.database.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
    [schema],
  )

describe('createStore', () => {
  it('creates every table in its own schema and records the migration once', async () => {
    const schema = freshSchema()
    schemas.push(schema)
    const store = await createStore(db.database, { schema, closeDatabase: false })
    expect((await tablesIn(schema)).map((t) => t.table_name)).toEqual([
      'ai_stream_parts',
      'ai_streams',
      'answers',
      'api_tokens',
      'credentials',
      'flow_webhooks',
      'flows',
      'handoff_events',
      'handoff_positions',
      'handoffs',
      'idempotency_keys',
      'identity_secrets',
      'job_leases',
      'outbox',
      'privacy_audit',
      'published_flow_versions',
      'published_flows',
      'rate_limits',
      'result_logs',
      'results',
      'schema_migrations',
      'sessions',
      'uploads',
      'webhook_deliveries',
      'workspaces',
    ])
    expect(await tablesIn('public')).toEqual([])
    await store.close()

    const again = await createStore(db.database, { schema, closeDatabase: false })
    expect(await again.database.query(`SELECT version FROM ${again.tables.migrations}`)).toEqual(everyMigration())
    await again.close()
  })

  it('keeps stores in different schemas apart', async () => {
    const [a, b] = [freshSchema(), freshSchema()]
    schemas.push(a, b)
    const storeA = await createStore(db.database, { schema: a, closeDatabase: false })
    const storeB = await createStore(db.database, { schema: b, closeDatabase: false })
    await storeA.workspaces.ensure('only-in-a', 'A', new Date())
    expect(await storeB.workspaces.find('only-in-a')).toBeUndefined()
    expect(await storeA.workspaces.find('only-in-a')).toMatchObject({ id: 'only-in-a' })
  })

  it('rolls a transaction back as a whole', async () => {
    const schema = freshSchema()
    schemas.push(schema)
    const store = await createStore(db.database, { schema, closeDatabase: false })
    await expect(
      store.transaction(async (tx) => {
        await tx.workspaces.ensure('half-done', 'H', new Date())
        throw new Error('boom')
      }),
    ).rejects.toThrow('boom')
    expect(await store.workspaces.find('half-done')).toBeUndefined()
  })
})

/** One row per migration, each applied once. */
function everyMigration() {
  return Array.from({ length: LATEST_SCHEMA_VERSION }, (_, i) => ({ version: i + 1 }))
}
