import type { Queryable } from './database'
import { isoTimestamp, type Tables } from './tables'

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
}

const COLUMNS = 'id, workspace_id, result_id, session_id, block_id, storage_key, name, type, size, private, created_at'

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
       SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11
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
   * Forgets, and returns the storage keys of, files whose session is gone (purged) and that no
   * answer of their result names: uploaded but never sent, or sent and refused. At most `limit`.
   */
  async takeOrphans(limit: number): Promise<string[]> {
    const rows = await this.db.query<{ storage_key: string }>(
      `DELETE FROM ${this.t.uploads} WHERE id IN (
         SELECT u.id FROM ${this.t.uploads} u
         WHERE NOT EXISTS (SELECT 1 FROM ${this.t.sessions} s WHERE s.id = u.session_id)
           AND NOT EXISTS (SELECT 1 FROM ${this.t.answers} a WHERE a.result_id = u.result_id AND strpos(a.value, u.id) > 0)
         LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING storage_key`,
      [limit],
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
