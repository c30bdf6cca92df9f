import type { Queryable } from './database'
import { isoTimestamp, type Tables } from './tables'

/** A stored credential: its data only as ciphertext (see credentials/credentials-key.ts). */
export interface CredentialRecord {
  workspaceId: string
  id: string
  type: string
  name: string
  keyId: string
  sealed: string
  createdAt: string
  updatedAt: string
}

interface CredentialRow {
  workspace_id: string
  id: string
  type: string
  name: string
  key_id: string
  sealed: string
  created_at: unknown
  updated_at: unknown
}

const COLUMNS = 'workspace_id, id, type, name, key_id, sealed, created_at, updated_at'

const toRecord = (row: CredentialRow): CredentialRecord => ({
  workspaceId: row.workspace_id,
  id: row.id,
  type: row.type,
  name: row.name,
  keyId: row.key_id,
  sealed: row.sealed,
  createdAt: isoTimestamp(row.created_at),
  updatedAt: isoTimestamp(row.updated_at),
})

/** Every query names the workspace: no credential is reachable from another one. */
export class CredentialsRepository {
  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
  ) {}

  /** False when the workspace already has a credential with this id. */
  async insert(record: CredentialRecord): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO ${this.t.credentials} (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (workspace_id, id) DO NOTHING RETURNING id`,
      [record.workspaceId, record.id, record.type, record.name, record.keyId, record.sealed, record.createdAt, record.updatedAt],
    )
    return rows.length === 1
  }

  async find(workspaceId: string, id: string): Promise<CredentialRecord | undefined> {
    const rows = await this.db.query<CredentialRow>(`SELECT ${COLUMNS} FROM ${this.t.credentials} WHERE workspace_id = $1 AND id = $2`, [
      workspaceId,
      id,
    ])
    return rows[0] && toRecord(rows[0])
  }

  async list(workspaceId: string): Promise<CredentialRecord[]> {
    const rows = await this.db.query<CredentialRow>(
      `SELECT ${COLUMNS} FROM ${this.t.credentials} WHERE workspace_id = $1 ORDER BY created_at, id`,
      [workspaceId],
    )
    return rows.map(toRecord)
  }

  async update(
    workspaceId: string,
    id: string,
    changes: { name: string; keyId: string; sealed: string; updatedAt: string },
  ): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE ${this.t.credentials} SET name = $3, key_id = $4, sealed = $5, updated_at = $6
       WHERE workspace_id = $1 AND id = $2 RETURNING id`,
      [workspaceId, id, changes.name, changes.keyId, changes.sealed, changes.updatedAt],
    )
    return rows.length === 1
  }

  async delete(workspaceId: string, id: string): Promise<boolean> {
    const rows = await this.db.query(`DELETE FROM ${this.t.credentials} WHERE workspace_id = $1 AND id = $2 RETURNING id`, [
      workspaceId,
      id,
    ])
    return rows.length === 1
  }

  /** How many credentials, across workspaces, were sealed with another key than `keyId`. */
  async countSealedWithOtherKeys(keyId: string): Promise<number> {
    const rows = await this.db.query<{ count: number | string }>(`SELECT count(*) AS count FROM ${this.t.credentials} WHERE key_id <> $1`, [
      keyId,
    ])
    return Number(rows[0]?.count ?? 0)
  }
}
