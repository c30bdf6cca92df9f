import type { Queryable } from './database'
import { isoTimestamp, type Tables } from './tables'

/** A log a step wrote, as stored with its result (sensitive ones included; chat-steps-repository.ts writes them). */
export interface StoredLog {
  status: string
  description: string
  details?: unknown
  sessionId: string | null
  createdAt: string
}

export class ResultLogsRepository {
  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
  ) {}

  /** Logs written outside a step (a streamed answer that failed), in order. */
  async add(
    resultId: string,
    sessionId: string,
    logs: readonly { status: string; description: string; details?: unknown }[],
    now: Date,
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO ${this.t.resultLogs} (result_id, session_id, status, description, details, created_at)
       SELECT $1, $2, x.log ->> 'status', x.log ->> 'description', x.log -> 'details', $4
       FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS x(log, n) ORDER BY x.n`,
      [resultId, sessionId, JSON.stringify(logs), now.toISOString()],
    )
  }

  /** In the order they were written. */
  async list(resultId: string): Promise<StoredLog[]> {
    const rows = await this.db.query<{
      status: string
      description: string
      details: unknown
      session_id: string | null
      created_at: unknown
    }>(
      `SELECT status, description, details, session_id, created_at FROM ${this.t.resultLogs}
       WHERE result_id = $1 ORDER BY id`,
      [resultId],
    )
    return rows.map((row) => ({
      status: row.status,
      description: row.description,
      ...(row.details === null || row.details === undefined ? {} : { details: row.details }),
      sessionId: row.session_id,
      createdAt: isoTimestamp(row.created_at),
    }))
  }
}
