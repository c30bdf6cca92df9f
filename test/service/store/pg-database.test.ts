import { describe, expect, it } from 'vitest'
import { openPgDatabase } from '../../../src/service/store/pg-database'
import { databaseUrl } from '../helpers/database'
import { until } from '../helpers/until'

/**
 * The server ending a connection the service holds (a restart, a failover, an operator's
 * pg_terminate_backend). The soak found a process dying of it: a transaction's connection lost
 * between two statements was an 'error' event nobody listened to.
 */
describe.skipIf(!databaseUrl)('a PostgreSQL connection ended by the server', () => {
  it('fails the transaction holding it, keeps the process alive, and serves the next one', async () => {
    const db = openPgDatabase(databaseUrl!, 2)
    const other = openPgDatabase(databaseUrl!, 1)
    try {
      const ending = db.transaction(async (tx) => {
        const [row] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')
        const pid = row!.pid
        await other.query('SELECT pg_terminate_backend($1)', [pid])
        await until(async () => (await other.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).length === 0)
        // Between two statements, the way a transaction waits on its caller's work.
        await new Promise((resolve) => setTimeout(resolve, 200))
        return tx.query('SELECT 1')
      })
      await expect(ending).rejects.toThrow()
      expect(await db.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }])
    } finally {
      await Promise.all([db.close(), other.close()])
    }
  })
})
