import type { Queryable } from './database'
import { isoTimestamp, isoTimestampOrNull, type Tables } from './tables'

export interface UploadRecord {
  id: string
  workspaceId: string
  resultId: string
  sessionId: string
  blockId: string
  storageKey: string
  name: string
  type: string
  size: number
  private: boolean
  createdAt: string
  /** The network the file came from (http/client-address.ts), which quotas count by. */
  clientKey: string
}

/** What quotas count (uploads/upload-quotas.ts): unsent bytes are those of uploads made since `since`. */
export interface UploadUsage {
  sessionBytes: number
  clientUnsentBytes: number
  workspaceUnsentBytes: number
  /** The oldest unsent upload counted for the client, and for the workspace: when room comes back. */
  clientOldest: string | null
  workspaceOldest: string | null
}

interface UploadRow {
  id: string
  workspace_id: string
  result_id: string
  session_id: string
  block_id: string
  storage_key: string
  name: string
  type: string
  size: unknown
  private: boolean
  created_at: unknown
  client_key: string
}

const COLUMNS = 'id, workspace_id, result_id, session_id, block_id, storage_key, name, type, size, private, created_at, client_key'

/**
 * An upload (`u`) sent: named by the answer of its own file question in its own conversation.
 * Named anywhere else (a text answer, another conversation) it is not sent, and goes as unsent.
 */
const SENT = (t: Tables) =>
  `(u.sent OR EXISTS (SELECT 1 FROM ${t.answers} a
     WHERE a.result_id = u.result_id AND a.session_id = u.session_id AND a.block_id = u.block_id AND strpos(a.value, u.id) > 0))`

const toRecord = (row: UploadRow): UploadRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  resultId: row.result_id,
  sessionId: row.session_id,
  blockId: row.block_id,
  storageKey: row.storage_key,
  name: row.name,
  type: row.type,
  size: Number(row.size),
  private: row.private,
  createdAt: isoTimestamp(row.created_at),
  clientKey: row.client_key,
})

/** Uploaded files (their bytes are in the file storage, uploads/file-storage.ts). */
export class UploadsRepository {
  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
  ) {}

  /**
   * Records a stored file, unless its session already has `maxPerInput` files for this block
   * (counted in the same statement, so concurrent uploads cannot pass it together): false then.
   */
  async insert(record: UploadRecord, maxPerInput: number): Promise<boolean> {
    const rows = await this.db.query<{ id: string }>(
      `INSERT INTO ${this.t.uploads} (${COLUMNS})
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $13
       WHERE (SELECT count(*) FROM ${this.t.uploads} WHERE session_id = $4 AND block_id = $5) < $12
       RETURNING id`,
      [
        record.id,
        record.workspaceId,
        record.resultId,
        record.sessionId,
        record.blockId,
        record.storageKey,
        record.name,
        record.type,
        record.size,
        record.private,
        record.createdAt,
        maxPerInput,
        record.clientKey,
      ],
    )
    return rows.length === 1
  }

  async findById(id: string): Promise<UploadRecord | undefined> {
    const rows = await this.db.query<UploadRow>(`SELECT ${COLUMNS} FROM ${this.t.uploads} WHERE id = $1`, [id])
    return rows[0] && toRecord(rows[0])
  }

  /** The ids of the files one session uploaded to one block. */
  /** The session's files for this input, with the names their URLs end with. */
  async filesFor(sessionId: string, blockId: string): Promise<{ id: string; name: string }[]> {
    return this.db.query<{ id: string; name: string }>(`SELECT id, name FROM ${this.t.uploads} WHERE session_id = $1 AND block_id = $2`, [
      sessionId,
      blockId,
    ])
  }

  async idsFor(sessionId: string, blockId: string): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(`SELECT id FROM ${this.t.uploads} WHERE session_id = $1 AND block_id = $2`, [
      sessionId,
      blockId,
    ])
    return rows.map((row) => row.id)
  }

  /**
   * Holds the quotas of a workspace and a client until the transaction ends, so that uploads
   * finishing together are counted one after the other (on every process sharing the database).
   */
  async lockQuotas(workspaceId: string, clientKey: string): Promise<void> {
    await this.db.query(
      `SELECT pg_advisory_xact_lock(hashtext('uploads:workspace:' || $1)), pg_advisory_xact_lock(hashtext('uploads:client:' || $2))`,
      [workspaceId, clientKey],
    )
  }

  /** What a conversation stored, and what a client and a workspace uploaded since `since` and have not sent. */
  async usage(input: { sessionId: string; clientKey: string; workspaceId: string; since: Date }): Promise<UploadUsage> {
    const unsent = (column: string, param: string) =>
      `SELECT coalesce(sum(u.size), 0) AS bytes, min(u.created_at) AS oldest FROM ${this.t.uploads} u
       WHERE u.${column} = ${param} AND u.created_at > $4 AND NOT ${SENT(this.t)}`
    const rows = await this.db.query<Record<string, unknown>>(
      `WITH c AS (${unsent('client_key', '$2')}), w AS (${unsent('workspace_id', '$3')})
       SELECT (SELECT coalesce(sum(size), 0) FROM ${this.t.uploads} WHERE session_id = $1) AS session_bytes,
         c.bytes AS client_bytes, c.oldest AS client_oldest, w.bytes AS workspace_bytes, w.oldest AS workspace_oldest
       FROM c, w`,
      [input.sessionId, input.clientKey, input.workspaceId, input.since.toISOString()],
    )
    const row = rows[0] ?? {}
    return {
      sessionBytes: Number(row.session_bytes ?? 0),
      clientUnsentBytes: Number(row.client_bytes ?? 0),
      workspaceUnsentBytes: Number(row.workspace_bytes ?? 0),
      clientOldest: isoTimestampOrNull(row.client_oldest),
      workspaceOldest: isoTimestampOrNull(row.workspace_oldest),
    }
  }

  /**
   * Marks up to `limit` uploads made before `before` that were sent, so the purge never looks at
   * them again; returns how many.
   */
  async markSent(before: Date, limit: number): Promise<number> {
    const rows = await this.db.query(
      `UPDATE ${this.t.uploads} SET sent = true WHERE id IN (
         SELECT u.id FROM ${this.t.uploads} u
         WHERE NOT u.sent AND u.created_at < $1 AND ${SENT(this.t)}
         LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING 1`,
      [before.toISOString(), limit],
    )
    return rows.length
  }

  /**
   * Forgets, and returns the storage keys of, up to `limit` uploads never sent that are done
   * waiting: made before `before`, or their conversation is gone.
   */
  async takeUnsent(before: Date, limit: number): Promise<string[]> {
    const rows = await this.db.query<{ storage_key: string }>(
      `DELETE FROM ${this.t.uploads} WHERE id IN (
         SELECT u.id FROM ${this.t.uploads} u
         WHERE NOT u.sent
           AND (u.created_at < $1 OR NOT EXISTS (SELECT 1 FROM ${this.t.sessions} s WHERE s.id = u.session_id))
           AND NOT ${SENT(this.t)}
         LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING storage_key`,
      [before.toISOString(), limit],
    )
    return rows.map((row) => row.storage_key)
  }

  /** Forgets one result's files, returning their storage keys. */
  async takeResult(resultId: string): Promise<string[]> {
    const rows = await this.db.query<{ storage_key: string }>(`DELETE FROM ${this.t.uploads} WHERE result_id = $1 RETURNING storage_key`, [
      resultId,
    ])
    return rows.map((row) => row.storage_key)
  }
}
