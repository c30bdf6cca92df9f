import type { Queryable } from './database'
import { isoTimestamp, type Tables } from './tables'

export interface WorkspaceRecord {
  id: string
  name: string
  createdAt: string
}

interface WorkspaceRow {
  id: string
  name: string
  created_at: unknown
}

const toRecord = (row: WorkspaceRow): WorkspaceRecord => ({
  id: row.id,
  name: row.name,
  createdAt: isoTimestamp(row.created_at),
})

export class WorkspacesRepository {
  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
  ) {}

  /** Creates the workspace unless it exists; returns it either way. */
  async ensure(id: string, name: string, now: Date): Promise<WorkspaceRecord> {
    await this.db.query(
      `INSERT INTO ${this.t.workspaces} (id, name, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (id) DO NOTHING`,
      [id, name, now],
    )
    const found = await this.find(id)
    if (!found) throw new Error(`Workspace ${id} vanished right after it was ensured`)
    return found
  }

  async find(id: string): Promise<WorkspaceRecord | undefined> {
    const rows = await this.db.query<WorkspaceRow>(`SELECT id, name, created_at FROM ${this.t.workspaces} WHERE id = $1`, [id])
    return rows[0] && toRecord(rows[0])
  }

  /** Whether the workspace revoked its share pages' token (and has not turned them back on). */
  async shareTokensRevoked(id: string): Promise<boolean> {
    const rows = await this.db.query<{ revoked: boolean }>(
      `SELECT share_tokens_revoked_at IS NOT NULL AS revoked FROM ${this.t.workspaces} WHERE id = $1`,
      [id],
    )
    return rows[0]?.revoked === true
  }

  /** Marks the share pages' token revoked (`at`), or turns them back on (`null`). */
  async setShareTokensRevoked(id: string, at: Date | null): Promise<void> {
    await this.db.query(`UPDATE ${this.t.workspaces} SET share_tokens_revoked_at = $2 WHERE id = $1`, [id, at])
  }

  async list(): Promise<WorkspaceRecord[]> {
    const rows = await this.db.query<WorkspaceRow>(`SELECT id, name, created_at FROM ${this.t.workspaces} ORDER BY id`)
    return rows.map(toRecord)
  }
}
