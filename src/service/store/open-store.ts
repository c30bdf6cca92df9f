import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { ServiceConfig } from '../config'
import type { Database } from './database'
import { openPgDatabase } from './pg-database'
import { openPgliteDatabase } from './pglite-database'
import { createStore, DEFAULT_SCHEMA, type Store } from './store'
import { tablesFor } from './tables'

export interface OpenStoreOptions {
  /** A PostgreSQL server; wins over `dataDir`. */
  databaseUrl?: string
  /** PGlite data directory; with neither option, PGlite runs in memory. */
  dataDir?: string
  schema?: string
}

/** Opens the database the options name, applies pending migrations and returns the store. */
export async function openStore(options: OpenStoreOptions = {}): Promise<Store> {
  tablesFor(options.schema ?? DEFAULT_SCHEMA) // refuse a bad schema name before opening anything
  const database: Database = options.databaseUrl ? openPgDatabase(options.databaseUrl) : await openPgliteDatabase(options.dataDir)
  try {
    return await createStore(database, { schema: options.schema })
  } catch (error) {
    await database.close().catch(() => undefined)
    throw error
  }
}

/**
 * The store the service configuration names. PGlite lives in a `pglite` folder of `DATA_DIR`, so
 * the data directory can hold other files without confusing the database.
 */
export function storeOptionsFrom(config: ServiceConfig): OpenStoreOptions {
  return config.databaseUrl
    ? { databaseUrl: config.databaseUrl, schema: config.databaseSchema }
    : { dataDir: pgliteDir(config.dataDir), schema: config.databaseSchema }
}

const pgliteDir = (dataDir: string) => join(dataDir, 'pglite')

/** Whether the embedded database of `dataDir` has been made (the service makes it at its first start). */
export const embeddedDatabaseExists = (dataDir: string): boolean => existsSync(join(pgliteDir(dataDir), 'PG_VERSION'))
