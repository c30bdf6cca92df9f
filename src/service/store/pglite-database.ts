import { mkdir } from 'node:fs/promises'
import { PGlite } from '@electric-sql/pglite'
import type { Database, Queryable } from './database'
import { lockDirectory } from './directory-lock'

/**
 * PGlite: PostgreSQL compiled to WebAssembly, in process. One connection, so transactions are
 * naturally serialised; `dataDir` undefined keeps everything in memory.
 */
export async function openPgliteDatabase(dataDir?: string): Promise<Database> {
  if (dataDir === undefined) return wrapPglite(await PGlite.create())
  await mkdir(dataDir, { recursive: true })
  const unlock = await lockDirectory(dataDir)
  try {
    return wrapPglite(await PGlite.create(dataDir), unlock)
  } catch (error) {
    await unlock()
    throw error
  }
}

/** `onClose` runs after the database has closed (releases the directory lock). */
export function wrapPglite(db: PGlite, onClose?: () => Promise<void>): Database {
  const queryable = (target: Pick<PGlite, 'query'>): Queryable => ({
    async query<T>(sql: string, params: unknown[] = []) {
      const result = await target.query<T>(sql, params)
      return result.rows
    },
  })
  return {
    ...queryable(db),
    transaction: (fn) => db.transaction((tx) => fn(queryable(tx))),
    // One connection in this process: nothing to reconnect.
    async listen(channel, onPayload) {
      const stop = await db.listen(channel, onPayload)
      return async () => {
        if (!db.closed) await stop()
      }
    },
    close: async () => {
      if (db.closed) return
      await db.close()
      await onClose?.()
    },
  }
}
