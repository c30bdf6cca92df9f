import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll } from 'vitest'
import type { Database } from '../../../src/service/store/database'
import { openPgDatabase } from '../../../src/service/store/pg-database'
import { openTemplatedPglite } from './pglite-template'

/**
 * One database per test file: PGlite in memory, or the PostgreSQL server named by
 * `DATABASE_URL`. Each test then works in its own fresh schema (see `freshSchema`).
 */
export interface TestDatabase {
  readonly database: Database
  readonly kind: 'pglite' | 'postgres'
}

export const databaseUrl = process.env.DATABASE_URL || undefined

export function useTestDatabase(): TestDatabase {
  let database: Database | undefined
  beforeAll(async () => {
    database = databaseUrl ? openPgDatabase(databaseUrl, 4) : await openTemplatedPglite()
  })
  afterAll(async () => {
    await database?.close()
  })
  return {
    get database() {
      if (!database) throw new Error('useTestDatabase(): the database opens in beforeAll')
      return database
    },
    kind: databaseUrl ? 'postgres' : 'pglite',
  }
}

export function freshSchema(): string {
  return `test_${randomBytes(6).toString('hex')}`
}

export async function dropSchema(database: Database, schema: string): Promise<void> {
  await database.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
}
