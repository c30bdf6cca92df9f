import type { Queryable } from './database'
import type { VerdictRow } from './rate-limits-repository'
import { StatementTexts } from './statement-texts'
import {
  type AnswerCommit,
  answersCte,
  answersJson,
  completionWebhookCte,
  handoffRequestCtes,
  linkedResultsCte,
  linkedResultsJson,
  logsCte,
  type StartCommit,
} from './step-writes'
import { isoTimestamp, isoTimestampOrNull, type Tables } from './tables'

/**
 * The statements of a chat step, each one round trip. A step reads what it needs in one
 * statement (taking its rate-limit token and its session's lease in the same go), runs the flow
 * with no transaction open and no connection held, then writes its whole outcome in one
 * statement: session state, answers, result and idempotent response commit together or not at
 * all, and only while the step still holds the session's lease.
 */

/** Adds a rate-limit CTE named `rl` to a statement (its parameters appended), or nothing. */
export type RateLimitCte = (name: string, params: unknown[]) => string | undefined

export interface FlowHead {
  id: string
  workspaceId: string
  publicId: string
  isClosed: boolean
  isArchived: boolean
  currentVersionId: string | undefined
  /** The flow's name, when asked for (it lives in the stored content, which costs a read). */
  name?: string
}

export interface StartLookup {
  flow: FlowHead | undefined
  rateLimit: VerdictRow | undefined
}

/** A session with what a request needs of its flow (a sessions row joined with its flow and published flow). */
export interface SessionHead {
  id: string
  flowId: string
  resultId: string
  publishedVersionId: string
  workspaceId: string
  isClosed: boolean
  isArchived: boolean
  /** The flow's live version: its allowed origins rule the request. */
  currentVersionId: string | undefined
}

export interface SessionLookup {
  /** The session as stored, with its flow's standing. */
  session: (SessionHead & { state: unknown; expiresAt: string; completedAt: string | null }) | undefined
  rateLimit: VerdictRow | undefined
}

export interface TurnLookup {
  session: SessionHead | undefined
  /** Present when this statement took the lease: the session as of that moment. */
  /** `state`: the engine's session state as stored (the store never looks inside it). */
  leased: { state: unknown; step: number; expiresAt: string; completedAt: string | null } | undefined
  /** A commit happened between this statement's snapshot and its lease: re-read idempotency. */
  movedMeanwhile: boolean
  idempotent: { requestHash: string; response: string } | undefined
  rateLimit: VerdictRow | undefined
}

export class ChatStepsRepository {
  /** The texts of the statements every chat request runs, built once (statement-texts.ts). */
  private readonly texts = {
    flowHead: new StatementTexts(),
    flowHeadWithName: new StatementTexts(),
    session: new StatementTexts(),
    openTurn: new StatementTexts(),
    commits: new StatementTexts(),
  }

  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
  ) {}

  /**
   * The flow a startChat or share page names (id wins over public id) and its live version id,
   * without its content; with the request's rate limit when given.
   */
  async findFlowHead(ref: string, options: { rateLimit?: RateLimitCte; withName?: boolean } = {}): Promise<StartLookup> {
    const params: unknown[] = [ref]
    const rl = options.rateLimit?.('rl', params)
    const texts = options.withName ? this.texts.flowHeadWithName : this.texts.flowHead
    const rows = await this.db.query<Record<string, unknown>>(
      texts.text(
        rl ?? '',
        () => `WITH ${rl ? `${rl},` : ''}
       f AS (
         SELECT f.id, f.workspace_id, f.public_id, f.is_closed, f.is_archived, p.current_version_id${
           options.withName ? ", f.content ->> 'name' AS name" : ''
         }
         FROM ${this.t.flows} f LEFT JOIN ${this.t.publishedFlows} p ON p.flow_id = f.id
         WHERE f.id = $1 OR f.public_id = $1
         ORDER BY (f.id = $1) DESC LIMIT 1)
       SELECT f.*${rl ? ', rl.allowed, rl.tokens' : ''}
       FROM (SELECT 1) AS one LEFT JOIN f ON true${rl ? ' LEFT JOIN rl ON true' : ''}`,
      ),
      params,
    )
    const row = rows[0] ?? {}
    return {
      flow:
        row.id === null || row.id === undefined
          ? undefined
          : {
              id: String(row.id),
              publicId: String(row.public_id),
              ...flowState(row),
              ...(options.withName ? { name: typeof row.name === 'string' ? row.name : '' } : {}),
            },
      rateLimit: rl ? verdictRow(row) : undefined,
    }
  }

  /**
   * The session a request names, with its flow's standing and live version id, in one read; with
   * the request's rate limit when given. Takes no lease: for requests that follow a session
   * (a streamed answer, an upload, a webhook wait, a preflight) rather than step it.
   */
  async findSession(sessionId: string, options: { rateLimit?: RateLimitCte } = {}): Promise<SessionLookup> {
    const params: unknown[] = [sessionId]
    const rl = options.rateLimit?.('rl', params)
    const rows = await this.db.query<Record<string, unknown>>(
      this.texts.session.text(
        rl ?? '',
        () => `WITH ${rl ? `${rl},` : ''}
       s AS (${this.sessionHeadSelect('s.state, s.expires_at, s.completed_at')})
       SELECT s.*${rl ? ', rl.allowed, rl.tokens' : ''}
       FROM (SELECT 1) AS one LEFT JOIN s ON true${rl ? ' LEFT JOIN rl ON true' : ''}`,
      ),
      params,
    )
    const row = rows[0] ?? {}
    const found = row.id !== null && row.id !== undefined
    return {
      session: found
        ? {
            ...sessionHead(row),
            state: row.state,
            expiresAt: isoTimestamp(row.expires_at),
            completedAt: isoTimestampOrNull(row.completed_at),
          }
        : undefined,
      rateLimit: rl ? verdictRow(row) : undefined,
    }
  }

  /**
   * Reads the session and its flow, and takes the session's lease for `leaseMs` when it is free
   * or expired (and the rate limit, if any, allows the request). The lease is an owner token and
   * an expiry in the row: no transaction stays open while the step runs.
   */
  async openTurn(input: {
    sessionId: string
    leaseOwner: string
    leaseMs: number
    idempotencyKey: string | undefined
    rateLimit?: RateLimitCte
  }): Promise<TurnLookup> {
    const params: unknown[] = [input.sessionId, input.leaseOwner, input.leaseMs / 1000, input.idempotencyKey ?? null]
    const rl = input.rateLimit?.('rl', params)
    const rows = await this.db.query<Record<string, unknown>>(
      this.texts.openTurn.text(
        rl ?? '',
        () => `WITH ${rl ? `${rl},` : ''}
       s AS (${this.sessionHeadSelect('s.step AS seen_step')}),
       l AS (
         UPDATE ${this.t.sessions}
         SET lease_owner = $2, lease_expires_at = clock_timestamp() + make_interval(secs => $3::float8)
         WHERE id = $1 AND (lease_owner IS NULL OR lease_expires_at <= clock_timestamp())${rl ? ' AND (SELECT allowed FROM rl)' : ''}
         RETURNING state, step, expires_at, completed_at)
       SELECT s.*, l.state, l.step, l.expires_at, l.completed_at, (l.step IS NOT NULL) AS leased,
              i.request_hash, i.response${rl ? ', rl.allowed, rl.tokens' : ''}
       FROM (SELECT 1) AS one
       LEFT JOIN s ON true
       LEFT JOIN l ON true
       LEFT JOIN ${this.t.idempotencyKeys} i ON i.session_id = $1 AND i.key = $4${rl ? ' LEFT JOIN rl ON true' : ''}`,
      ),
      params,
    )
    const row = rows[0] ?? {}
    const found = row.id !== null && row.id !== undefined
    const leased = found && row.leased === true
    return {
      session: found ? sessionHead(row) : undefined,
      leased: leased
        ? {
            state: row.state,
            step: Number(row.step),
            expiresAt: isoTimestamp(row.expires_at),
            completedAt: isoTimestampOrNull(row.completed_at),
          }
        : undefined,
      movedMeanwhile: leased && Number(row.step) !== Number(row.seen_step),
      idempotent: typeof row.request_hash === 'string' ? { requestHash: row.request_hash, response: String(row.response) } : undefined,
      rateLimit: rl ? verdictRow(row) : undefined,
    }
  }

  /** The session `$1` with its flow's standing (`sessionHead` reads it), and the `columns` of the session's row. */
  private sessionHeadSelect(columns: string): string {
    return `SELECT s.id, s.flow_id, s.result_id, s.published_version_id, ${columns},
                f.workspace_id, f.is_closed, f.is_archived, p.current_version_id
         FROM ${this.t.sessions} s
         JOIN ${this.t.flows} f ON f.id = s.flow_id
         LEFT JOIN ${this.t.publishedFlows} p ON p.flow_id = s.flow_id
         WHERE s.id = $1`
  }

  /** Extends a lease this owner still holds; false when it was lost (expired and taken). */
  async renewLease(sessionId: string, leaseOwner: string, leaseMs: number): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE ${this.t.sessions} SET lease_expires_at = clock_timestamp() + make_interval(secs => $3::float8)
       WHERE id = $1 AND lease_owner = $2 RETURNING 1`,
      [sessionId, leaseOwner, leaseMs / 1000],
    )
    return rows.length > 0
  }

  async releaseLease(sessionId: string, leaseOwner: string): Promise<void> {
    await this.db.query(`UPDATE ${this.t.sessions} SET lease_owner = NULL, lease_expires_at = NULL WHERE id = $1 AND lease_owner = $2`, [
      sessionId,
      leaseOwner,
    ])
  }

  async findIdempotentResponse(sessionId: string, key: string): Promise<{ requestHash: string; response: string } | undefined> {
    const rows = await this.db.query<{ request_hash: string; response: string }>(
      `SELECT request_hash, response FROM ${this.t.idempotencyKeys} WHERE session_id = $1 AND key = $2`,
      [sessionId, key],
    )
    return rows[0] && { requestHash: rows[0].request_hash, response: rows[0].response }
  }

  /**
   * Writes an answered step and releases the lease, in one statement, only if `leaseOwner` still
   * holds the lease. False when it did not: nothing was written.
   */
  async commitAnswer(commit: AnswerCommit): Promise<boolean> {
    const key = commit.idempotency
    const rows = await this.db.query<{ committed: number }>(
      this.texts.commits.text(
        awaitsHandoff(commit.stateJson) ? 'answer, handoff' : 'answer',
        () => `WITH s AS (
         UPDATE ${this.t.sessions}
         SET state = $3::jsonb, step = step + 1, last_activity_at = $4, expires_at = $5,
             completed_at = CASE WHEN $6::boolean THEN $4::timestamptz ELSE NULL END,
             lease_owner = NULL, lease_expires_at = NULL,
             last_step = CASE WHEN last_step IS NULL THEN NULL ELSE COALESCE($14::text, last_step) END
         WHERE id = $1 AND lease_owner = $2
         RETURNING id, result_id, flow_id),
       ${linkedResultsCte(this.t, '$11', '$4')},
       ${answersCte(this.t, '$7', '$4')},
       ${logsCte(this.t, '$12', '$4')},
       ${completionWebhookCte(this.t, '$13', '$6', '$4')},
       r AS (
         UPDATE ${this.t.results}
         SET variables = $3::jsonb -> 'variables', is_completed = is_completed OR $6::boolean, updated_at = $4,
             completed_at = COALESCE(completed_at, CASE WHEN $6::boolean THEN $4::timestamptz END)
         WHERE id = (SELECT result_id FROM s)),
       i AS (
         INSERT INTO ${this.t.idempotencyKeys} (session_id, key, request_hash, response, created_at)
         SELECT s.id, $8, $9, $10, $4 FROM s WHERE $8::text IS NOT NULL)${
           awaitsHandoff(commit.stateJson) ? `,\n       ${handoffRequestCtes(this.t, '$3', '$4')}` : ''
         }
       SELECT count(*)::int AS committed${awaitsHandoff(commit.stateJson) ? ', (SELECT count(*) FROM hn) AS notified' : ''} FROM s`,
      ),
      [
        commit.sessionId,
        commit.leaseOwner,
        commit.stateJson,
        commit.timestamp,
        commit.expiresAt,
        commit.ended,
        answersJson(commit.answers),
        key?.key ?? null,
        key?.requestHash ?? null,
        key?.response ?? null,
        linkedResultsJson(commit.linkedResults ?? []),
        JSON.stringify(commit.logs ?? []),
        commit.deliveryId,
        commit.response ?? null,
      ],
    )
    return (rows[0]?.committed ?? 0) > 0
  }

  /** Writes a started session, its new (or resumed) result and any answers, in one statement. */
  async commitStart(commit: StartCommit): Promise<void> {
    const { session } = commit
    const handoff = awaitsHandoff(commit.stateJson)
    const sql = this.texts.commits.text(`${commit.newResult ? 'start' : 'resumed start'}${handoff ? ', handoff' : ''}`, () =>
      this.startText(commit.newResult, handoff),
    )
    await this.db.query(sql, [
      session.id,
      session.resultId,
      session.flowId,
      session.publishedFlowId,
      session.publishedVersionId,
      session.publishedAt,
      commit.stateJson,
      answersJson(commit.answers),
      commit.ended,
      commit.timestamp,
      commit.expiresAt,
      linkedResultsJson(commit.linkedResults ?? []),
      JSON.stringify(commit.logs ?? []),
      commit.deliveryId,
      commit.versionNumber,
      commit.user?.id ?? null,
      commit.user?.lastStep ?? null,
    ])
  }

  private startText(newResult: boolean, handoff: boolean): string {
    const result = newResult
      ? `INSERT INTO ${this.t.results} (id, flow_id, variables, is_completed, created_at, updated_at, version, user_id, completed_at)
         VALUES ($2, $3, $7::jsonb -> 'variables', $9, $10, $10, $15, $16::text, CASE WHEN $9 THEN $10::timestamptz END)`
      : `UPDATE ${this.t.results} SET variables = $7::jsonb -> 'variables', is_completed = is_completed OR $9, updated_at = $10,
           completed_at = COALESCE(completed_at, CASE WHEN $9 THEN $10::timestamptz END),
           version = $15, user_id = COALESCE(user_id, $16::text)
         WHERE id = $2`
    return `WITH r AS (${result}),
       s AS (
         INSERT INTO ${this.t.sessions} (id, flow_id, result_id, published_flow_id, published_version_id, published_at,
           state, step, created_at, last_activity_at, expires_at, completed_at, last_step)
         VALUES ($1, $3, $2, $4, $5, $6, $7::jsonb, 0, $10, $10, $11, CASE WHEN $9 THEN $10::timestamptz ELSE NULL END, $17::text)
         RETURNING id, result_id, flow_id),
       ${linkedResultsCte(this.t, '$12', '$10')},
       ${answersCte(this.t, '$8', '$10')},
       ${logsCte(this.t, '$13', '$10')},
       ${completionWebhookCte(this.t, '$14', '$9', '$10')}${handoff ? `,\n       ${handoffRequestCtes(this.t, '$7', '$10')}` : ''}
       SELECT 1${handoff ? ', (SELECT count(*) FROM hn) AS notified' : ''}`
  }
}

/** Whether a step's stored state waits for a handoff (its statement then records it: step-writes.ts). */
function awaitsHandoff(stateJson: string): boolean {
  return stateJson.includes('"kind":"handoff"') && (JSON.parse(stateJson) as { awaiting?: { kind?: string } }).awaiting?.kind === 'handoff'
}

function sessionHead(row: Record<string, unknown>): SessionHead {
  return {
    id: String(row.id),
    flowId: String(row.flow_id),
    resultId: String(row.result_id),
    publishedVersionId: String(row.published_version_id),
    ...flowState(row),
  }
}

/** What a request needs of the flow it reaches, from a row joining flows and published_flows. */
function flowState(row: Record<string, unknown>) {
  return {
    workspaceId: String(row.workspace_id),
    isClosed: row.is_closed === true,
    isArchived: row.is_archived === true,
    currentVersionId: (row.current_version_id as string | null) ?? undefined,
  }
}

const verdictRow = (row: Record<string, unknown>): VerdictRow => ({ allowed: row.allowed === true, tokens: Number(row.tokens) })
