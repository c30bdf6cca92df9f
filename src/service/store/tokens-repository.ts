import type { TokenKind } from '../ids'
import type { Queryable } from './database'
import { isoTimestamp, type Tables } from './tables'

export interface TokenRecord {
  id: string
  workspaceId: string
  kind: TokenKind
  label: string | null
  /** The token's last characters, kept at creation to tell tokens apart; null for older ones. */
  hint: string | null
  createdAt: string
  /** An agent token's person: the name and picture visitors see. */
  agentName: string | null
  agentAvatarUrl: string | null
}

interface TokenRow {
  id: string
  workspace_id: string
  kind: TokenKind
  label: string | null
  hint: string | null
  created_at: unknown
  agent_name: string | null
  agent_avatar_url: string | null
}

const COLUMNS = 'id, workspace_id, kind, label, hint, created_at, agent_name, agent_avatar_url'

const toRecord = (row: TokenRow): TokenRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  kind: row.kind,
  label: row.label,
  hint: row.hint,
  createdAt: isoTimestamp(row.created_at),
  agentName: row.agent_name ?? null,
  agentAvatarUrl: row.agent_avatar_url ?? null,
})

/** API tokens, stored as SHA-256 hashes only: the plain token is shown once, at creation. */
export class TokensRepository {
  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
  ) {}

  /** Inserts the token; when this hash is already stored, returns the existing record unchanged. */
  async insert(token: {
    id: string
    workspaceId: string
    kind: TokenKind
    tokenHash: string
    label: string | null
    hint?: string
    createdAt: Date
    agent?: { name: string; avatarUrl?: string }
  }): Promise<TokenRecord> {
    await this.db.query(
      `INSERT INTO ${this.t.apiTokens} (id, workspace_id, kind, token_hash, label, hint, created_at, agent_name, agent_avatar_url)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (token_hash) DO NOTHING`,
      [
        token.id,
        token.workspaceId,
        token.kind,
        token.tokenHash,
        token.label,
        token.hint ?? null,
        token.createdAt,
        token.agent?.name ?? null,
        token.agent?.avatarUrl ?? null,
      ],
    )
    const stored = await this.findByHash(token.tokenHash)
    if (!stored) throw new Error('Token vanished right after it was stored')
    return stored
  }

  async findByHash(tokenHash: string): Promise<TokenRecord | undefined> {
    const rows = await this.db.query<TokenRow>(`SELECT ${COLUMNS} FROM ${this.t.apiTokens} WHERE token_hash = $1`, [tokenHash])
    return rows[0] && toRecord(rows[0])
  }

  async listByWorkspace(workspaceId: string): Promise<TokenRecord[]> {
    const rows = await this.db.query<TokenRow>(
      `SELECT ${COLUMNS} FROM ${this.t.apiTokens} WHERE workspace_id = $1 ORDER BY created_at, id`,
      [workspaceId],
    )
    return rows.map(toRecord)
  }

  /**
   * Deletes a token of the workspace: the next request carrying it, in any process, finds no
   * token (authentication reads this table on every request). False when the workspace has no
   * token with this id.
   */
  async revoke(workspaceId: string, id: string): Promise<boolean> {
    return (await this.revokeReturning(workspaceId, id)) !== undefined
  }

  /** `revoke`, answering what the token was (its kind and label). */
  async revokeReturning(workspaceId: string, id: string): Promise<TokenRecord | undefined> {
    const rows = await this.db.query<TokenRow>(`DELETE FROM ${this.t.apiTokens} WHERE id = $1 AND workspace_id = $2 RETURNING ${COLUMNS}`, [
      id,
      workspaceId,
    ])
    return rows[0] && toRecord(rows[0])
  }

  /** Deletes the workspace's publishable tokens with this label (every process's share page token). */
  async revokeLabelled(workspaceId: string, label: string): Promise<void> {
    await this.db.query(`DELETE FROM ${this.t.apiTokens} WHERE workspace_id = $1 AND kind = 'publishable' AND label = $2`, [
      workspaceId,
      label,
    ])
  }
}
