import type { Queryable } from './database'
import { isoTimestamp, type Tables } from './tables'

/**
 * How the owner names a visitor: a result's id, a signed-in user's id (results carry it, migration
 * 14), or a variable's value (an e-mail address) in any of the workspace's flows, compared without
 * regard to case. Each kind is one SQL condition on `r` (results) and `f` (flows) in
 * `visitorCondition` below; counting, erasing and exporting follow from the result ids it finds.
 */
export type VisitorSelector =
  | { kind: 'result'; resultId: string }
  | { kind: 'user'; userId: string }
  | { kind: 'variable'; variable: string; value: string }

/**
 * What is held about a visitor, as rows per kind: a result and everything hanging off it. Erasure
 * deletes the results (the database's cascades take answers, sessions and what they own, logs,
 * webhook deliveries and conversations with a person), their upload rows and files, and the
 * e-mails kept for them in the outbox.
 */
export const HELD_KINDS = [
  'results',
  'answers',
  'sessions',
  'idempotentReplies',
  'aiAnswers',
  'aiAnswerParts',
  'logs',
  'uploads',
  'webhookDeliveries',
  'handoffs',
  'handoffEvents',
  'outboxEmails',
] as const
export type HeldKind = (typeof HELD_KINDS)[number]
export type HeldCounts = Record<HeldKind, number>

export const noCounts = (): HeldCounts => Object.fromEntries(HELD_KINDS.map((kind) => [kind, 0])) as HeldCounts

export const addCounts = (into: HeldCounts, more: Partial<Record<HeldKind, number>>): HeldCounts => {
  for (const kind of HELD_KINDS) into[kind] += more[kind] ?? 0
  return into
}

export type AuditAction = 'erase' | 'access' | 'retention'

export interface AuditLine {
  id: string
  action: AuditAction
  /** The selector's kind ("result id", "variable Email"): never the value it was given. */
  selector: string | null
  tokenId: string | null
  /** The token's name, or the job's. */
  actor: string
  /** Rows of each kind (and the retention job's `files`). */
  counts: Record<string, number>
  createdAt: string
}

interface AuditRow {
  id: string
  action: AuditAction
  selector: string | null
  token_id: string | null
  actor: string
  counts: Record<string, number>
  created_at: unknown
}

/** Rows of one result's data, as the access export shows them (columns as stored). */
export type HeldRows = Record<string, Record<string, unknown>[]>

/** Finding, counting, deleting and reading a visitor's data, and the workspace's retention setting and audit. */
export class PrivacyRepository {
  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
  ) {}

  /** The ids of the workspace's results the selector names (at most `limit`), oldest first. */
  async matchingResults(workspaceId: string, selector: VisitorSelector, limit: number): Promise<string[]> {
    const { condition, params } = visitorCondition(selector)
    const rows = await this.db.query<{ id: string }>(
      `SELECT r.id FROM ${this.t.results} r JOIN ${this.t.flows} f ON f.id = r.flow_id
       WHERE f.workspace_id = $1 AND ${condition} ORDER BY r.created_at, r.id LIMIT $2`,
      [workspaceId, limit, ...params],
    )
    return rows.map((row) => row.id)
  }

  /** Rows of each kind these results hold: exactly what `deleteResults` deletes. */
  async count(resultIds: readonly string[]): Promise<HeldCounts> {
    const t = this.t
    const rows = await this.db.query<Record<HeldKind, string | number>>(
      `WITH s AS (SELECT id FROM ${t.sessions} WHERE result_id = ANY($1::text[])),
            h AS (SELECT id FROM ${t.handoffs} WHERE result_id = ANY($1::text[]))
       SELECT (SELECT count(*) FROM ${t.results} WHERE id = ANY($1::text[])) AS "results",
              (SELECT count(*) FROM ${t.answers} WHERE result_id = ANY($1::text[])) AS "answers",
              (SELECT count(*) FROM s) AS "sessions",
              (SELECT count(*) FROM ${t.idempotencyKeys} WHERE session_id IN (SELECT id FROM s)) AS "idempotentReplies",
              (SELECT count(*) FROM ${t.aiStreams} WHERE session_id IN (SELECT id FROM s)) AS "aiAnswers",
              (SELECT count(*) FROM ${t.aiStreamParts} WHERE session_id IN (SELECT id FROM s)) AS "aiAnswerParts",
              (SELECT count(*) FROM ${t.resultLogs} WHERE result_id = ANY($1::text[])) AS "logs",
              (SELECT count(*) FROM ${t.uploads} WHERE result_id = ANY($1::text[])) AS "uploads",
              (SELECT count(*) FROM ${t.webhookDeliveries} WHERE result_id = ANY($1::text[])) AS "webhookDeliveries",
              (SELECT count(*) FROM h) AS "handoffs",
              (SELECT count(*) FROM ${t.handoffEvents} WHERE handoff_id IN (SELECT id FROM h)) AS "handoffEvents",
              (SELECT count(*) FROM ${t.outbox} WHERE result_id = ANY($1::text[])) AS "outboxEmails"`,
      [resultIds],
    )
    const counts = noCounts()
    for (const kind of HELD_KINDS) counts[kind] = Number(rows[0]?.[kind] ?? 0)
    return counts
  }

  /** Where these results' uploaded files are in the file storage. */
  async uploadKeys(resultIds: readonly string[]): Promise<string[]> {
    const rows = await this.db.query<{ storage_key: string }>(
      `SELECT storage_key FROM ${this.t.uploads} WHERE result_id = ANY($1::text[])`,
      [resultIds],
    )
    return rows.map((row) => row.storage_key)
  }

  /**
   * Deletes these results and everything they hold (their files' bytes are the caller's, deleted
   * before: a crash in between leaves rows to delete again, never files nobody knows of). Run it
   * in a transaction. Returns how many results went.
   */
  async deleteResults(resultIds: readonly string[]): Promise<number> {
    await this.db.query(`DELETE FROM ${this.t.uploads} WHERE result_id = ANY($1::text[])`, [resultIds])
    await this.db.query(`DELETE FROM ${this.t.outbox} WHERE result_id = ANY($1::text[])`, [resultIds])
    const rows = await this.db.query(`DELETE FROM ${this.t.results} WHERE id = ANY($1::text[]) RETURNING 1`, [resultIds])
    return rows.length
  }

  /** Every row these results hold, by kind, for the access export. */
  async heldRows(resultIds: readonly string[]): Promise<HeldRows> {
    const t = this.t
    const ids = [resultIds]
    const bySession = (table: string, columns: string, order: string) =>
      this.db.query<Record<string, unknown>>(
        `SELECT s.result_id, ${columns} FROM ${table} x JOIN ${t.sessions} s ON s.id = x.session_id
         WHERE s.result_id = ANY($1::text[]) ORDER BY ${order}`,
        ids,
      )
    const [results, answers, sessions, logs, uploads, deliveries, handoffs, events, aiAnswers, emails] = await Promise.all([
      this.db.query<Record<string, unknown>>(
        `SELECT r.id, r.flow_id, f.content->>'name' AS flow_name, f.content->'variables' AS flow_variables, r.variables,
                r.is_completed, r.version, r.created_at, r.updated_at
         FROM ${t.results} r JOIN ${t.flows} f ON f.id = r.flow_id WHERE r.id = ANY($1::text[]) ORDER BY r.created_at, r.id`,
        ids,
      ),
      this.db.query<Record<string, unknown>>(
        `SELECT result_id, session_id, block_id, group_id, variable_id, value, display, created_at FROM ${t.answers}
         WHERE result_id = ANY($1::text[]) ORDER BY id`,
        ids,
      ),
      this.db.query<Record<string, unknown>>(
        `SELECT result_id, id, state, created_at, last_activity_at, expires_at, completed_at FROM ${t.sessions}
         WHERE result_id = ANY($1::text[]) ORDER BY created_at, id`,
        ids,
      ),
      this.db.query<Record<string, unknown>>(
        `SELECT result_id, session_id, status, description, details, created_at FROM ${t.resultLogs}
         WHERE result_id = ANY($1::text[]) ORDER BY id`,
        ids,
      ),
      this.db.query<Record<string, unknown>>(
        `SELECT result_id, id, session_id, block_id, name, type, size::float8 AS size, private, created_at FROM ${t.uploads}
         WHERE result_id = ANY($1::text[]) ORDER BY created_at, id`,
        ids,
      ),
      this.db.query<Record<string, unknown>>(
        `SELECT result_id, id, event, status, payload, attempts, attempt_log, created_at, updated_at FROM ${t.webhookDeliveries}
         WHERE result_id = ANY($1::text[]) ORDER BY created_at, id`,
        ids,
      ),
      this.db.query<Record<string, unknown>>(
        `SELECT result_id, id, session_id, block_id, status, agent, variables, requested_at, claimed_at, ended_at FROM ${t.handoffs}
         WHERE result_id = ANY($1::text[]) ORDER BY requested_at, id`,
        ids,
      ),
      this.db.query<Record<string, unknown>>(
        `SELECT h.result_id, e.handoff_id, e.seq, e.type, e.body, e.created_at FROM ${t.handoffEvents} e
         JOIN ${t.handoffs} h ON h.id = e.handoff_id WHERE h.result_id = ANY($1::text[]) ORDER BY e.handoff_id, e.seq`,
        ids,
      ),
      bySession(
        t.aiStreams,
        `x.session_id, x.stream_id, x.status, x.text || coalesce((SELECT string_agg(p.text, '' ORDER BY p.seq) FROM ${t.aiStreamParts} p
           WHERE p.session_id = x.session_id AND p.stream_id = x.stream_id), '') AS text, x.created_at`,
        'x.created_at, x.stream_id',
      ),
      this.db.query<Record<string, unknown>>(
        `SELECT result_id, id, message, created_at FROM ${t.outbox} WHERE result_id = ANY($1::text[]) ORDER BY created_at, id`,
        ids,
      ),
    ])
    return { results, answers, sessions, logs, uploads, deliveries, handoffs, events, aiAnswers, emails }
  }

  /**
   * Up to `limit` of the workspace's results whose conversation began and was last active
   * before `before`. The (flow_id, created_at) index finds them flow by flow.
   */
  async expiredResults(workspaceId: string, before: Date, limit: number): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `SELECT r.id FROM ${this.t.results} r JOIN ${this.t.flows} f ON f.id = r.flow_id
       WHERE f.workspace_id = $1 AND r.created_at < $2 AND r.updated_at < $2 LIMIT $3`,
      [workspaceId, before, limit],
    )
    return rows.map((row) => row.id)
  }

  /** Deletes up to `limit` of the workspace's outbox e-mails written before `before`; returns how many. */
  async deleteOldEmails(workspaceId: string, before: Date, limit: number): Promise<number> {
    const rows = await this.db.query(
      `DELETE FROM ${this.t.outbox} WHERE id IN (
         SELECT id FROM ${this.t.outbox} WHERE workspace_id = $1 AND created_at < $2 LIMIT $3) RETURNING 1`,
      [workspaceId, before, limit],
    )
    return rows.length
  }

  /** Workspaces that keep a visitor's data for a number of days. */
  async retainingWorkspaces(): Promise<{ id: string; retentionDays: number }[]> {
    const rows = await this.db.query<{ id: string; retention_days: number }>(
      `SELECT id, retention_days FROM ${this.t.workspaces} WHERE retention_days IS NOT NULL ORDER BY id`,
    )
    return rows.map((row) => ({ id: row.id, retentionDays: Number(row.retention_days) }))
  }

  async retentionDays(workspaceId: string): Promise<number | null> {
    const rows = await this.db.query<{ retention_days: number | null }>(`SELECT retention_days FROM ${this.t.workspaces} WHERE id = $1`, [
      workspaceId,
    ])
    return rows[0]?.retention_days == null ? null : Number(rows[0].retention_days)
  }

  async setRetentionDays(workspaceId: string, days: number | null): Promise<void> {
    await this.db.query(`UPDATE ${this.t.workspaces} SET retention_days = $2 WHERE id = $1`, [workspaceId, days])
  }

  async audit(workspaceId: string, line: AuditLine): Promise<void> {
    await this.db.query(
      `INSERT INTO ${this.t.privacyAudit} (id, workspace_id, action, selector, token_id, actor, counts, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)`,
      [line.id, workspaceId, line.action, line.selector, line.tokenId, line.actor, JSON.stringify(line.counts), line.createdAt],
    )
  }

  /** The workspace's audit, newest first. */
  async auditLines(workspaceId: string, limit: number): Promise<AuditLine[]> {
    const rows = await this.db.query<AuditRow>(
      `SELECT id, action, selector, token_id, actor, counts, created_at FROM ${this.t.privacyAudit}
       WHERE workspace_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
      [workspaceId, limit],
    )
    return rows.map((row) => ({
      id: row.id,
      action: row.action,
      selector: row.selector,
      tokenId: row.token_id,
      actor: row.actor,
      counts: row.counts,
      createdAt: isoTimestamp(row.created_at),
    }))
  }
}

/** One SQL condition per selector kind, its parameters numbered from $3. */
function visitorCondition(selector: VisitorSelector): { condition: string; params: unknown[] } {
  switch (selector.kind) {
    case 'result':
      return { condition: 'r.id = $3', params: [selector.resultId] }
    case 'user':
      // Exactly as the site's server signed it: user ids are the site's, case and all.
      return { condition: 'r.user_id = $3', params: [selector.userId] }
    case 'variable':
      // The flow's variable of that name (its draft's list), its value in the result by id.
      return {
        condition: `EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(f.content->'variables') = 'array'
                      THEN f.content->'variables' ELSE '[]'::jsonb END) v
                    WHERE lower(v->>'name') = lower($3) AND lower(r.variables->>(v->>'id')) = lower($4))`,
        params: [selector.variable, selector.value],
      }
  }
}
