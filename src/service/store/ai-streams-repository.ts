import type { Queryable } from './database'
import type { Tables } from './tables'

/**
 * Streamed AI answers as the service records them (see migrations.ts, version 4). A process
 * claims a stream to call the provider, writes its text as it grows (renewing its hold), and
 * ends it `done` or `failed`; any process reads it to replay or follow it.
 */

export type AiStreamStatus = 'running' | 'done' | 'failed'

export interface AiStreamRecord {
  status: AiStreamStatus
  text: string
  usage: unknown
  error: unknown
  /** A running stream whose owner stopped renewing its hold (its process went away). */
  abandoned: boolean
}

export class AiStreamsRepository {
  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
  ) {}

  /**
   * Takes the stream for `owner` when nobody has it yet, it failed, or its owner let its hold
   * expire: true when this call may ask the provider. Starts with no text.
   */
  async claim(sessionId: string, streamId: string, owner: string, holdMs: number, now: Date): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO ${this.t.aiStreams} AS a (session_id, stream_id, status, text, owner, lease_expires_at, created_at, updated_at)
       VALUES ($1, $2, 'running', '', $3, clock_timestamp() + make_interval(secs => $4::float8), $5, $5)
       ON CONFLICT (session_id, stream_id) DO UPDATE
         SET status = 'running', text = '', usage = NULL, error = NULL, owner = EXCLUDED.owner,
             lease_expires_at = EXCLUDED.lease_expires_at, updated_at = EXCLUDED.updated_at
         WHERE a.status = 'failed' OR (a.status = 'running' AND a.lease_expires_at <= clock_timestamp())
       RETURNING 1`,
      [sessionId, streamId, owner, holdMs / 1000, now.toISOString()],
    )
    return rows.length > 0
  }

  async find(sessionId: string, streamId: string): Promise<AiStreamRecord | undefined> {
    const rows = await this.db.query<{ status: AiStreamStatus; text: string; usage: unknown; error: unknown; abandoned: boolean }>(
      `SELECT status, text, usage, error,
              (status = 'running' AND lease_expires_at <= clock_timestamp()) AS abandoned
       FROM ${this.t.aiStreams} WHERE session_id = $1 AND stream_id = $2`,
      [sessionId, streamId],
    )
    const row = rows[0]
    return row && { status: row.status, text: row.text, usage: row.usage ?? undefined, error: row.error ?? undefined, abandoned: row.abandoned === true }
  }

  /** The text so far, renewing the owner's hold; false when the owner lost it. */
  async progress(sessionId: string, streamId: string, owner: string, text: string, holdMs: number): Promise<boolean> {
    return this.update(
      `text = $4, lease_expires_at = clock_timestamp() + make_interval(secs => $5::float8)`,
      [sessionId, streamId, owner, text, holdMs / 1000],
    )
  }

  /** The whole answer: recorded for good (the stream is never asked of the provider again). */
  async finish(sessionId: string, streamId: string, owner: string, text: string, usage: unknown): Promise<boolean> {
    return this.update(`status = 'done', text = $4, usage = $5::jsonb, owner = NULL, lease_expires_at = NULL`, [
      sessionId,
      streamId,
      owner,
      text,
      usage === undefined ? null : JSON.stringify(usage),
    ])
  }

  /** Nothing recorded: the next request starts over. */
  async fail(sessionId: string, streamId: string, owner: string, error: unknown): Promise<boolean> {
    return this.update(`status = 'failed', text = '', error = $4::jsonb, owner = NULL, lease_expires_at = NULL`, [
      sessionId,
      streamId,
      owner,
      JSON.stringify(error),
    ])
  }

  private async update(set: string, params: unknown[]): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE ${this.t.aiStreams} SET ${set}, updated_at = clock_timestamp()
       WHERE session_id = $1 AND stream_id = $2 AND owner = $3 AND status = 'running' RETURNING 1`,
      params,
    )
    return rows.length > 0
  }
}
