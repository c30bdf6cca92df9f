import type { Queryable } from './database'
import { isoTimestamp, isoTimestampOrNull, type Tables } from './tables'

export interface IdentitySecretRecord {
  id: string
  workspaceId: string
  keyId: string
  sealedSecret: string
  hint: string
  createdAt: string
  /** When a rotated-out secret stops verifying; null for the current one. */
  retiresAt: string | null
}

/** The latest conversation of a user in a flow: its result, and its latest session with where it stands. */
export interface UserConversation {
  resultId: string
  isCompleted: boolean
  session:
    | {
        id: string
        publishedVersionId: string
        publishedAt: string
        lastActivityAt: string
        expiresAt: string
        completedAt: string | null
        /** The response of the last step it answered (identified sessions write it). */
        lastStep: string | null
      }
    | undefined
}

/** Identity secrets of workspaces, and the conversations of identified users. */
export class IdentityRepository {
  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
  ) {}

  /** The workspace's secrets that verify at `now`: the current one and rotated-out ones not yet retired. */
  async activeSecrets(workspaceId: string, now: string): Promise<IdentitySecretRecord[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT id, workspace_id, key_id, sealed_secret, hint, created_at, retires_at FROM ${this.t.identitySecrets}
       WHERE workspace_id = $1 AND (retires_at IS NULL OR retires_at > $2::timestamptz)
       ORDER BY retires_at IS NULL DESC, created_at DESC, id`,
      [workspaceId, now],
    )
    return rows.map(toSecret)
  }

  /**
   * Makes `secret` the workspace's current one, in one statement: the one it replaces verifies
   * until `previousRetiresAt`, older ones stop now (at most two secrets verify at any time).
   */
  async rotate(secret: Omit<IdentitySecretRecord, 'retiresAt'>, previousRetiresAt: string): Promise<void> {
    await this.db.query(
      `WITH old AS (
         UPDATE ${this.t.identitySecrets}
         SET retires_at = CASE WHEN retires_at IS NULL THEN $7::timestamptz ELSE LEAST(retires_at, $6::timestamptz) END
         WHERE workspace_id = $2 AND (retires_at IS NULL OR retires_at > $6::timestamptz))
       INSERT INTO ${this.t.identitySecrets} (id, workspace_id, key_id, sealed_secret, hint, created_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [secret.id, secret.workspaceId, secret.keyId, secret.sealedSecret, secret.hint, secret.createdAt, previousRetiresAt],
    )
  }

  /** The user's latest conversation of the flow, if any (results_flow_user_idx, then sessions by result). */
  async latestConversation(flowId: string, userId: string): Promise<UserConversation | undefined> {
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT r.id AS result_id, r.is_completed, s.id AS session_id, s.published_version_id, s.published_at,
              s.last_activity_at, s.expires_at, s.completed_at, s.last_step
       FROM (SELECT id, is_completed FROM ${this.t.results} WHERE flow_id = $1 AND user_id = $2
             ORDER BY created_at DESC, id DESC LIMIT 1) r
       LEFT JOIN LATERAL (SELECT * FROM ${this.t.sessions} WHERE result_id = r.id ORDER BY created_at DESC, id DESC LIMIT 1) s ON true`,
      [flowId, userId],
    )
    const row = rows[0]
    if (!row) return undefined
    return {
      resultId: String(row.result_id),
      isCompleted: row.is_completed === true,
      session:
        row.session_id === null || row.session_id === undefined
          ? undefined
          : {
              id: String(row.session_id),
              publishedVersionId: String(row.published_version_id),
              publishedAt: isoTimestamp(row.published_at),
              lastActivityAt: isoTimestamp(row.last_activity_at),
              expiresAt: isoTimestamp(row.expires_at),
              completedAt: isoTimestampOrNull(row.completed_at),
              lastStep: typeof row.last_step === 'string' ? row.last_step : null,
            },
    }
  }
}

function toSecret(row: Record<string, unknown>): IdentitySecretRecord {
  return {
    id: String(row.id),
    workspaceId: String(row.workspace_id),
    keyId: String(row.key_id),
    sealedSecret: String(row.sealed_secret),
    hint: String(row.hint),
    createdAt: isoTimestamp(row.created_at),
    retiresAt: isoTimestampOrNull(row.retires_at),
  }
}
