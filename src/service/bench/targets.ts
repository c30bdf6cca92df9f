/**
 * The floors the service is measured against, each run as its own process by the bench:
 *
 * - `bare`: node:http answering a fixed JSON body (what this machine's HTTP stack costs);
 * - `minimal`: a handler doing the durable work of one continueChat and nothing else: one
 *   transaction that locks the session row, updates it and inserts the answer, on the embedded
 *   database (DATA_DIR) or on PostgreSQL (DATABASE_URL, in DATABASE_SCHEMA).
 *
 * Prints `listening <port>` once ready; stops on SIGTERM.
 */
import { createServer, type IncomingMessage } from 'node:http'
import type { Database } from '../store/database'
import { openPgDatabase } from '../store/pg-database'
import { openPgliteDatabase } from '../store/pglite-database'
import { FIXED_STEP_BODY, MINIMAL_SESSIONS } from './load'

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

async function minimalDatabase(): Promise<{ db: Database; schema: string }> {
  const schema = process.env.DATABASE_SCHEMA ?? 'bench_minimal'
  const db = process.env.DATABASE_URL ? openPgDatabase(process.env.DATABASE_URL) : await openPgliteDatabase(process.env.DATA_DIR)
  await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
  await db.query(`CREATE SCHEMA ${schema}`)
  await db.query(`CREATE TABLE ${schema}.sessions (id text PRIMARY KEY, state jsonb NOT NULL, step integer NOT NULL)`)
  await db.query(`CREATE TABLE ${schema}.answers (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    session_id text NOT NULL REFERENCES ${schema}.sessions(id), value text NOT NULL, created_at timestamptz NOT NULL)`)
  await db.query(
    `INSERT INTO ${schema}.sessions SELECT 's' || n, '{"variables":{},"visitedBlockCount":1}', 0 FROM generate_series(1, ${MINIMAL_SESSIONS}) n`,
  )
  return { db, schema }
}

async function main(): Promise<void> {
  const kind = process.argv[2]
  let handle: (body: string, url: string) => Promise<void> = async () => undefined
  let close = async () => undefined
  if (kind === 'minimal') {
    const { db, schema } = await minimalDatabase()
    handle = async (body, url) => {
      const sessionId = url.split('/')[2] ?? 's1'
      const { message } = JSON.parse(body) as { message: string }
      await db.transaction(async (tx) => {
        const [session] = await tx.query<{ state: { variables: Record<string, string> }; step: number }>(
          `SELECT state, step FROM ${schema}.sessions WHERE id = $1 FOR UPDATE`,
          [sessionId],
        )
        if (!session) throw new Error(`no session ${sessionId}`)
        session.state.variables.answer = message
        await tx.query(`UPDATE ${schema}.sessions SET state = $2::jsonb, step = $3 WHERE id = $1`, [
          sessionId,
          JSON.stringify(session.state),
          session.step + 1,
        ])
        await tx.query(`INSERT INTO ${schema}.answers (session_id, value, created_at) VALUES ($1, $2, $3)`, [
          sessionId,
          message,
          new Date(),
        ])
      })
    }
    close = async () => {
      await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      await db.close()
    }
  } else if (kind !== 'bare') {
    throw new Error(`unknown target ${kind}`)
  }

  const server = createServer((request, response) => {
    readBody(request)
      .then((body) => handle(body, request.url ?? '/'))
      .then(
        () => {
          response.writeHead(200, { 'content-type': 'application/json' })
          response.end(FIXED_STEP_BODY)
        },
        (error: unknown) => {
          response.writeHead(500, { 'content-type': 'text/plain' })
          response.end(String(error))
        },
      )
  })
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`listening ${(server.address() as { port: number }).port}\n`)
  })
  process.once('SIGTERM', () => {
    server.close()
    close().then(() => process.exit(0))
  })
}

await main()
