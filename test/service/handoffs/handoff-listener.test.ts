import { afterEach, describe, expect, it } from 'vitest'
import { databaseUrl, useTestDatabase } from '../helpers/database'
import { data, openStream, publishHandoffFlow, startHandedOver, visitorPath } from '../helpers/handoffs'
import { type CapturedLogs, captureLogs } from '../helpers/logs'
import { createTestService, type TestService } from '../helpers/service'

/**
 * The process's one LISTEN connection to PostgreSQL can drop (a failover, a restart, an
 * administrator's pg_terminate_backend). The listener connects again and LISTENs again, and each
 * open stream reads what was committed meanwhile: the lines said while no notification could
 * arrive reach the visitor without waiting for a later one, none twice, and later lines arrive as
 * before. Needs DATABASE_URL.
 */
const db = useTestDatabase()
let svc: TestService
let logs: CapturedLogs | undefined

afterEach(async () => {
  logs?.restore()
  await svc?.close()
})

/** The server process holding this schema's LISTEN (its last statement), if any. */
async function listeningBackend(channel: string): Promise<number | undefined> {
  const rows = await db.database.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE query = $1 AND pid <> pg_backend_pid() ORDER BY backend_start DESC',
    [`LISTEN "${channel}"`],
  )
  return rows[0]?.pid
}

describe.skipIf(!databaseUrl)('the PostgreSQL listener of live conversations', () => {
  it('listens again after its connection is terminated, and the streams get every line committed meanwhile, once', async () => {
    svc = await createTestService(db)
    const channel = svc.store.tables.handoffChannel
    const flowId = await publishHandoffFlow(svc)
    const { sessionId, handoffId } = await startHandedOver(svc, flowId)
    expect((await svc.call('POST', `/v1/handoffs/${handoffId}/claim`, { token: svc.tokens.secret })).status).toBe(200)
    const say = async (text: string) => {
      const said = await svc.call('POST', `/v1/handoffs/${handoffId}/messages`, { token: svc.tokens.secret, json: { text } })
      expect(said.status).toBe(201)
    }
    const isMessage = (event: { type: string }) => event.type === 'message'

    const stream = await openStream(svc, visitorPath(sessionId, 'events'))
    await say('before')
    expect((await stream.take(1, isMessage)).map((event) => data(event).text)).toEqual(['before'])

    const captured = (logs = captureLogs({ level: 'warn' }))
    const first = await listeningBackend(channel)
    expect(first).toBeDefined()
    const [terminated] = await db.database.query<{ ok: boolean }>('SELECT pg_terminate_backend($1) AS ok', [first])
    expect(terminated!.ok).toBe(true)
    // Said while the listening connection is down: no notification reaches this process.
    await say('while down 1')
    await say('while down 2')

    // Listening again, on a new connection.
    for (let again = await listeningBackend(channel); again === undefined || again === first; again = await listeningBackend(channel)) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    captured.restore()
    // The operator reads why in the log, once.
    expect(captured.lines.filter((line) => line.err?.code === '57P01').map((line) => line.msg)).toEqual([
      'the database connection listening for live conversations failed; connecting again',
    ])
    // No notification tells of them: they come because the listener, back, has every stream read again.
    const missed = await stream.take(2, isMessage, 15_000)
    expect(missed.map((event) => data(event).text)).toEqual(['while down 1', 'while down 2'])
    await say('after')
    expect((await stream.take(1, isMessage)).map((event) => data(event).text)).toEqual(['after'])
    const seqs = stream.events.filter((event) => event.id).map((event) => Number(event.id))
    expect(seqs).toEqual(seqs.map((_, index) => index + 1))
    stream.close()
  }, 30_000)
})
