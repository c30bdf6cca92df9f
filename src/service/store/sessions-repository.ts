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

export interface StoredIdempotentResponse {
  requestHash: string
  response: unknown
}

export class SessionsRepository {
  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
  ) {}

  async insert(session: SessionRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO ${this.t.sessions} (${COLUMNS})
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12)`,
      [
        session.id,
        session.flowId,
        session.resultId,
        session.publishedFlowId,
        session.publishedVersionId,
        session.publishedAt,
        JSON.stringify(session.state),
        session.step,
        session.createdAt,
        session.lastActivityAt,
        session.expiresAt,
        session.completedAt,
      ],
    )
  }

  /**
   * `lock` holds the row until the transaction ends, so concurrent answers to one session run
   * one after the other instead of both advancing from the same state.
   */
  async findById(id: string, options: { lock?: boolean } = {}): Promise<SessionRecord | undefined> {
    const rows = await this.db.query<SessionRow>(
      `SELECT ${COLUMNS} FROM ${this.t.sessions} WHERE id = $1${options.lock ? ' FOR UPDATE' : ''}`,
      [id],
    )
    return rows[0] && toRecord(rows[0])
  }

  async update(
    id: string,
    changes: Pick<SessionRecord, 'state' | 'step' | 'lastActivityAt' | 'expiresAt' | 'completedAt'>,
  ): Promise<void> {
    await this.db.query(
      `UPDATE ${this.t.sessions}
       SET state = $2::jsonb, step = $3, last_activity_at = $4, expires_at = $5, completed_at = $6
       WHERE id = $1`,
      [
        id,
        JSON.stringify(changes.state),
        changes.step,
        changes.lastActivityAt,
        changes.expiresAt,
        changes.completedAt,
      ],
    )
  }

  async findIdempotentResponse(
    sessionId: string,
    key: string,
  ): Promise<StoredIdempotentResponse | undefined> {
    const rows = await this.db.query<{ request_hash: string; response: string }>(
      `SELECT request_hash, response FROM ${this.t.idempotencyKeys} WHERE session_id = $1 AND key = $2`,
      [sessionId, key],
    )
    return rows[0] && { requestHash: rows[0].request_hash, response: JSON.parse(rows[0].response) }
  }

  async saveIdempotentResponse(input: {
    sessionId: string
    key: string
    requestHash: string
    response: unknown
    createdAt: string
  }): Promise<void> {
    await this.db.query(
      `INSERT INTO ${this.t.idempotencyKeys} (session_id, key, request_hash, response, created_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [input.sessionId, input.key, input.requestHash, JSON.stringify(input.response), input.createdAt],
    )
  }
}
