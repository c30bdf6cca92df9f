import type { Queryable } from './database'
import { isoTimestamp, isoTimestampOrNull, type Tables } from './tables'

export interface SessionRecord {
  id: string
  flowId: string
  resultId: string
  publishedFlowId: string
  /** The published version this session runs on, even after the flow is re-published. */
  publishedVersionId: string
  publishedAt: string
  /** The engine's session state, kept as JSON: the store never looks inside it. */
  state: unknown
  /** Accepted continueChat requests so far. */
  step: number
  createdAt: string
  lastActivityAt: string
  expiresAt: string
  completedAt: string | null
}

interface SessionRow {
  id: string
  flow_id: string
  result_id: string
  published_flow_id: string
  published_version_id: string
  published_at: unknown
  state: unknown
  step: number
  created_at: unknown
  last_activity_at: unknown
  expires_at: unknown
  completed_at: unknown
}

const COLUMNS = `id, flow_id, result_id, published_flow_id, published_version_id, published_at, state,
  step, created_at, last_activity_at, expires_at, completed_at`

const toRecord = (row: SessionRow): SessionRecord => ({
  id: row.id,
  flowId: row.flow_id,
  resultId: row.result_id,
  publishedFlowId: row.published_flow_id,
  publishedVersionId: row.published_version_id,
  publishedAt: isoTimestamp(row.published_at),
  state: row.state,
  step: Number(row.step),
  createdAt: isoTimestamp(row.created_at),
  lastActivityAt: isoTimestamp(row.last_activity_at),
  expiresAt: isoTimestamp(row.expires_at),
  completedAt: isoTimestampOrNull(row.completed_at),
})

export class SessionsRepository {
  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
  ) {}

  /** A session as stored (steps write through chat-steps-repository.ts). */
  async findById(id: string): Promise<SessionRecord | undefined> {
    const rows = await this.db.query<SessionRow>(`SELECT ${COLUMNS} FROM ${this.t.sessions} WHERE id = $1`, [id])
    return rows[0] && toRecord(rows[0])
  }

  /** The latest running session of a result that waits for its webhook (a `webhook` block). */
  async findWaitingForWebhook(resultId: string): Promise<SessionRecord | undefined> {
    const rows = await this.db.query<SessionRow>(
      `SELECT ${COLUMNS} FROM ${this.t.sessions}
       WHERE result_id = $1 AND completed_at IS NULL AND state -> 'awaiting' ->> 'kind' = 'webhook'
       ORDER BY last_activity_at DESC, id LIMIT 1`,
      [resultId],
    )
    return rows[0] && toRecord(rows[0])
  }

  /**
   * Deletes sessions that expired before `before` (their idempotent responses go with them; their
   * answers stay with their results), skipping any a step still holds. At most `limit` per call;
   * it scans the table (see migrations.ts), which a purge every ten minutes affords.
   */
  async purgeExpired(before: Date, limit: number): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      `WITH gone AS (
         DELETE FROM ${this.t.sessions} WHERE id IN (
           SELECT id FROM ${this.t.sessions}
           WHERE expires_at < $1 AND (lease_owner IS NULL OR lease_expires_at < clock_timestamp())
           LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [before.toISOString(), limit],
    )
    return rows[0]?.n ?? 0
  }
}
