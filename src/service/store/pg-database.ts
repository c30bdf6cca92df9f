import pg from 'pg'
import type { Database, Queryable } from './database'

/** A PostgreSQL server through a `pg` connection pool. */
export function openPgDatabase(connectionString: string, maxConnections = 10): Database {
  const pool = new pg.Pool({ connectionString, max: maxConnections })
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', (error) => console.error('[store] idle database connection failed:', error.message))

  const queryable = (target: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T>(sql: string, params: unknown[] = []) {
      const result = await target.query(sql, params)
      return result.rows as T[]
    },
  })

  return {
    ...queryable(pool),
    async transaction(fn) {
      const client = await pool.connect()
      let broken = false
      try {
        await client.query('BEGIN')
        const value = await fn(queryable(client))
        await client.query('COMMIT')
        return value
      } catch (error) {
        try {
          await client.query('ROLLBACK')
        } catch {
          // The connection itself failed: give it back as broken so the pool discards it.
          broken = true
        }
        throw error
      } finally {
        client.release(broken)
      }
    },
    close: () => pool.end(),
  }
}
