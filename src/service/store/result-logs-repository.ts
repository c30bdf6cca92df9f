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
