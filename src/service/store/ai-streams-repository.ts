import type { Queryable } from './database'
import type { Tables } from './tables'

/**
 * Streamed AI answers as the service records them (see migrations.ts, versions 4 and 5). A
 * process claims a stream to call the provider, appends its text in parts as it grows (renewing
 * its hold), and ends it `done` or `failed`; any process reads it to replay or follow it. Each
 * part is written once: the answer is their concatenation, never rewritten whole.
 */

export type AiStreamStatus = 'running' | 'done' | 'failed'

export interface AiStreamKey {
  sessionId: string
  streamId: string
}

export interface AiStreamPart {
  /** From 1, in the order of the text (0: an answer recorded whole before parts existed). */
  seq: number
  text: string
}

export interface AiStreamView {
  status: AiStreamStatus
  /** The process that ran (or runs) this attempt; a new attempt has a new owner. */
  owner: string | null
  /** The parts after the `afterSeq` asked for, in order. */
  parts: AiStreamPart[]
  usage: unknown
  error: unknown
  finishReason: string | undefined
  /** A running stream whose owner stopped renewing its hold (its process went away). */
  abandoned: boolean
}

export interface AiStreamRecord extends Omit<AiStreamView, 'parts'> {
  text: string
}

/** `taken`: someone runs or recorded it; `busy`: the workspace streams its most already. */
export type ClaimOutcome = 'claimed' | 'taken' | 'busy'

export class AiStreamsRepository {
  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
  ) {}

  /**
   * Takes the stream for `owner` when nobody has it yet, it failed, or its owner let its hold
   * expire, and the workspace has fewer than `maxRunning` streams running: `claimed` means this
   * call may ask the provider. Starts with no text. Run it in a transaction (`store.transaction`):
   * the workspace's lock, taken first, holds until it ends, so that claims count one at a time.
   */
  async claim(key: AiStreamKey, workspaceId: string, owner: string, holdMs: number, now: Date, maxRunning: number): Promise<ClaimOutcome> {
    await this.db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${this.t.aiStreams} ${workspaceId}`])
    const [state] = await this.db.query<{ status: AiStreamStatus | null; held: boolean | null; running: number }>(
      `SELECT (SELECT status FROM ${this.t.aiStreams} WHERE session_id = $1 AND stream_id = $2) AS status,
              (SELECT lease_expires_at > clock_timestamp() FROM ${this.t.aiStreams} WHERE session_id = $1 AND stream_id = $2) AS held,
              (SELECT count(*)::int FROM ${this.t.aiStreams}
               WHERE workspace_id = $3 AND status = 'running' AND lease_expires_at > clock_timestamp()) AS running`,
      [key.sessionId, key.streamId, workspaceId],
    )
    if (state?.status === 'done' || (state?.status === 'running' && state.held === true)) return 'taken'
    if ((state?.running ?? 0) >= maxRunning) return 'busy'
    await this.db.query(`DELETE FROM ${this.t.aiStreamParts} WHERE session_id = $1 AND stream_id = $2`, [key.sessionId, key.streamId])
    const rows = await this.db.query(
      `INSERT INTO ${this.t.aiStreams} AS a (session_id, stream_id, workspace_id, status, text, owner, lease_expires_at, created_at, updated_at)
       VALUES ($1, $2, $3, 'running', '', $4, clock_timestamp() + make_interval(secs => $5::float8), $6, $6)
       ON CONFLICT (session_id, stream_id) DO UPDATE
         SET status = 'running', text = '', usage = NULL, error = NULL, finish_reason = NULL, workspace_id = EXCLUDED.workspace_id,
             owner = EXCLUDED.owner, lease_expires_at = EXCLUDED.lease_expires_at, updated_at = EXCLUDED.updated_at
         WHERE a.status = 'failed' OR (a.status = 'running' AND a.lease_expires_at <= clock_timestamp())
       RETURNING 1`,
      [key.sessionId, key.streamId, workspaceId, owner, holdMs / 1000, now.toISOString()],
    )
    return rows.length > 0 ? 'claimed' : 'taken'
  }

  /** The stream and its parts after `afterSeq` (-1: all of them), in one statement. */
  async read(key: AiStreamKey, afterSeq: number): Promise<AiStreamView | undefined> {
    const rows = await this.db.query<{
      status: AiStreamStatus
      owner: string | null
      usage: unknown
      error: unknown
      finish_reason: string | null
      abandoned: boolean
      whole: string
      seq: number | null
      part: string | null
    }>(
      `SELECT a.status, a.owner, a.usage, a.error, a.finish_reason,
              (a.status = 'running' AND a.lease_expires_at <= clock_timestamp()) AS abandoned,
              CASE WHEN $3::int < 0 THEN a.text ELSE '' END AS whole, p.seq, p.text AS part
       FROM ${this.t.aiStreams} a
       LEFT JOIN ${this.t.aiStreamParts} p ON p.session_id = a.session_id AND p.stream_id = a.stream_id AND p.seq > $3::int
       WHERE a.session_id = $1 AND a.stream_id = $2
       ORDER BY p.seq`,
      [key.sessionId, key.streamId, afterSeq],
    )
    const row = rows[0]
    if (!row) return undefined
    const parts: AiStreamPart[] = row.whole ? [{ seq: 0, text: row.whole }] : []
    for (const { seq, part } of rows) if (seq !== null && part !== null) parts.push({ seq: Number(seq), text: part })
    return {
      status: row.status,
      owner: row.owner,
      parts,
      usage: row.usage ?? undefined,
      error: row.error ?? undefined,
      finishReason: row.finish_reason ?? undefined,
      abandoned: row.abandoned === true,
    }
  }

  /** The stream with its whole text so far. */
  async find(key: AiStreamKey): Promise<AiStreamRecord | undefined> {
    const view = await this.read(key, -1)
    if (!view) return undefined
    const { parts, ...rest } = view
    return { ...rest, text: parts.map((part) => part.text).join('') }
  }

  /** Appends a part (none: only renews), renewing the owner's hold; false when the owner lost it. */
  async append(key: AiStreamKey, owner: string, part: AiStreamPart | undefined, holdMs: number): Promise<boolean> {
    return this.update(`lease_expires_at = clock_timestamp() + make_interval(secs => $4::float8)`, key, owner, part, [holdMs / 1000])
  }

  /** The last part and the end of the answer: recorded for good (never asked of the provider again). */
  async finish(key: AiStreamKey, owner: string, part: AiStreamPart | undefined, usage: unknown, finishReason: string): Promise<boolean> {
    return this.update(`status = 'done', usage = $4::jsonb, finish_reason = $5, lease_expires_at = NULL`, key, owner, part, [
      usage === undefined ? null : JSON.stringify(usage),
      finishReason,
    ])
  }

  /** Nothing recorded: the parts go, and the next request starts over. */
  async fail(key: AiStreamKey, owner: string, error: unknown): Promise<boolean> {
    const rows = await this.db.query<{ failed: boolean }>(
      `WITH failed AS (
         UPDATE ${this.t.aiStreams} SET status = 'failed', text = '', error = $4::jsonb, owner = NULL, lease_expires_at = NULL,
                updated_at = clock_timestamp()
         WHERE session_id = $1 AND stream_id = $2 AND owner = $3 AND status = 'running' RETURNING 1),
       gone AS (
         DELETE FROM ${this.t.aiStreamParts} WHERE session_id = $1 AND stream_id = $2 AND EXISTS (SELECT 1 FROM failed))
       SELECT EXISTS (SELECT 1 FROM failed) AS failed`,
      [key.sessionId, key.streamId, owner, JSON.stringify(error)],
    )
    return rows[0]?.failed === true
  }

  /** Sets `set` (its parameters from $4) on the owner's running stream and adds `part` with it. */
  private async update(set: string, key: AiStreamKey, owner: string, part: AiStreamPart | undefined, params: unknown[]): Promise<boolean> {
    const p = params.length + 4
    const rows = await this.db.query<{ held: boolean }>(
      `WITH held AS (
         UPDATE ${this.t.aiStreams} SET ${set}, updated_at = clock_timestamp()
         WHERE session_id = $1 AND stream_id = $2 AND owner = $3 AND status = 'running' RETURNING 1),
       added AS (
         INSERT INTO ${this.t.aiStreamParts} (session_id, stream_id, seq, text)
         SELECT $1, $2, $${p}::int, $${p + 1}::text WHERE $${p + 1}::text <> '' AND EXISTS (SELECT 1 FROM held))
       SELECT EXISTS (SELECT 1 FROM held) AS held`,
      [key.sessionId, key.streamId, owner, ...params, part?.seq ?? 0, part?.text ?? ''],
    )
    return rows[0]?.held === true
  }
}
