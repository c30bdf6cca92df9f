import type { OutboxEmail } from '../../protocol/results'
import type { Queryable } from './database'
import { isoTimestamp, type Tables } from './tables'

/** An e-mail as it would have been sent. */
export type OutboxMessage = OutboxEmail['message']

export interface OutboxEntry {
  id: string
  workspaceId: string
  flowId: string | null
  resultId: string | null
  message: OutboxMessage
  createdAt: string
}

interface OutboxRow {
  id: string
  workspace_id: string
  flow_id: string | null
  result_id: string | null
  message: OutboxMessage
  created_at: unknown
}

/** E-mails kept instead of sent while no SMTP server is configured, per workspace. */
export class OutboxRepository {
  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
  ) {}

  async add(entry: OutboxEntry): Promise<void> {
    await this.db.query(
      `INSERT INTO ${this.t.outbox} (id, workspace_id, flow_id, result_id, message, created_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6)`,
      [entry.id, entry.workspaceId, entry.flowId, entry.resultId, JSON.stringify(entry.message), entry.createdAt],
    )
  }

  /** Newest first. */
  async list(workspaceId: string, limit: number): Promise<OutboxEntry[]> {
    const rows = await this.db.query<OutboxRow>(
      `SELECT id, workspace_id, flow_id, result_id, message, created_at FROM ${this.t.outbox}
       WHERE workspace_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
      [workspaceId, limit],
    )
    return rows.map((row) => ({
      id: row.id,
      workspaceId: row.workspace_id,
      flowId: row.flow_id,
      resultId: row.result_id,
      message: row.message,
      createdAt: isoTimestamp(row.created_at),
    }))
  }
}
