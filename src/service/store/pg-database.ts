import { createHash } from 'node:crypto'
import pg from 'pg'
import { log } from '../observability/log'
import { watchPool } from '../observability/metrics'
import type { Database, Queryable } from './database'
import { PgListener } from './pg-listener'

/**
 * Statements with parameters run as named prepared statements: each connection parses and plans
 * one the first time and reuses the plan after. The chat's statements are few but long (CTEs
 * over several tables); planning them anew on every request cost PostgreSQL more than running them.
 */
const statementNames = new Map<string, string>()

function statementName(sql: string): string {
  let name = statementNames.get(sql)
  if (name === undefined) {
    name = `s${createHash('sha1').update(sql).digest('base64url')}`
    // Bounded: SQL texts are fixed per schema, but tests create many schemas.
    if (statementNames.size >= 10_000) statementNames.clear()
    statementNames.set(sql, name)
  }
  return name
}

/** A PostgreSQL server through a `pg` connection pool. */
export function openPgDatabase(connectionString: string, maxConnections = 10): Database {
  const pool = new pg.Pool({ connectionString, max: maxConnections })
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', (error) => log().warn({ err: error }, 'an idle database connection failed'))
  // Nor may one that is checked out between two statements (a transaction awaiting its caller)
  // when the server ends it (restart, failover): the pool listens only to idle clients, and `pg`
  // emits the loss as an 'error' event. Its next statement fails and the pool discards it.
  pool.on('connect', (client) => client.on('error', (error) => log().warn({ err: error }, 'a database connection in use failed')))
  const listener = new PgListener(connectionString)
  const unwatch = watchPool(() => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: maxConnections }))

  const queryable = (target: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T>(sql: string, params: unknown[] = []) {
      if (params.length === 0) return (await target.query(sql)).rows as T[]
      return (await named(target, sql, params)).rows as T[]
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
    listen: (channel, onPayload, onReconnect) => listener.listen(channel, onPayload, onReconnect),
    close: async () => {
      unwatch()
      await listener.close()
      await pool.end()
    },
  }
}

/**
 * A named statement, handed to `pg` as a query already made: given a plain `{ name, text, values }`
 * object, `pg` copies it property by property on every call (1.3 % of a chat request's time).
 * Pool and client both take it with a callback: the pool's own goes around it and frees the client.
 */
function named(target: pg.Pool | pg.PoolClient, sql: string, params: unknown[]): Promise<pg.QueryResult> {
  const query = Object.assign(new pg.Query(sql, params), { name: statementName(sql) })
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, result: pg.QueryResult) => (error ? reject(error) : resolve(result))
    ;(target as unknown as { query(query: pg.Query, callback: typeof done): void }).query(query, done)
  })
}
