import type { Agent, HandoffEvent, HandoffStatus } from '../../protocol/handoff'
import type { Queryable } from './database'
import { isUniqueViolation } from './database'
import { StatementTexts } from './statement-texts'
import { isoTimestamp, isoTimestampOrNull, type Tables } from './tables'

/**
 * Conversations handed to a person and their events. A handoff is created by the chat step that
 * reached its block (step-writes.ts); everything after is one statement per change, each taking
 * the handoff row's lock: the change (a claim, an end) is a conditional UPDATE that only one
 * caller can win, the event gets the handoff's next `seq` and the workspace's next `position` in
 * the order they commit, and a notification (`pg_notify`, sent at commit) tells every process's
 * hub to read it (chat/handoff-hub.ts).
 */

export interface HandoffRecord {
  id: string
  workspaceId: string
  flowId: string
  resultId: string
  sessionId: string
  blockId: string
  status: HandoffStatus
  agentTokenId: string | null
  agent: Agent | null
  /** The variables the block shows to the person: ids and names. */
  visibleVariables: { id: string; name: string }[]
  /** What the person set, by name. */
  variables: Record<string, string>
  lastSeq: number
  requestedAt: string
  claimedAt: string | null
  endedAt: string | null
  deadline: string | null
  continuedAt: string | null
}

/** A stored event as the contract shows it, with the workspace position the inbox resumes from. */
export type StoredHandoffEvent = HandoffEvent & { position: number; handoffId: string }

/**
 * What a new event changes on its handoff, each a fixed condition so only one caller wins:
 * `message` needs the handoff open; `claim` takes a waiting one; `transfer` moves a live one;
 * `end` closes an open one (`timeout`: only a waiting one past its deadline); `continued` is
 * written once, after the flow went on.
 */
export type Change =
  | { kind: 'message' }
  | { kind: 'claim'; agentTokenId: string; agent: Agent }
  | { kind: 'transfer'; agentTokenId: string; agent: Agent }
  | { kind: 'end'; status: 'ended' | 'left' }
  | { kind: 'timeout' }
  | { kind: 'continued' }

const CONDITIONS: Record<Change['kind'], { set: string; where: string }> = {
  message: { set: '', where: `status IN ('waiting', 'live')` },
  claim: { set: `, status = 'live', agent_token_id = $6, agent = $7::jsonb, claimed_at = $4`, where: `status = 'waiting'` },
  transfer: { set: `, agent_token_id = $6, agent = $7::jsonb`, where: `status = 'live'` },
  end: { set: `, status = $8, ended_at = $4`, where: `status IN ('waiting', 'live')` },
  timeout: { set: `, status = 'unanswered', ended_at = $4`, where: `status = 'waiting' AND deadline <= $4` },
  continued: { set: `, continued_at = $4`, where: `continued_at IS NULL AND status IN ('ended', 'unanswered', 'left')` },
}

const COLUMNS = `id, workspace_id, flow_id, result_id, session_id, block_id, status, agent_token_id, agent, visible_variables,
  variables, last_seq, requested_at, claimed_at, ended_at, deadline, continued_at`

const toRecord = (row: Record<string, unknown>): HandoffRecord => ({
  id: String(row.id),
  workspaceId: String(row.workspace_id),
  flowId: String(row.flow_id),
  resultId: String(row.result_id),
  sessionId: String(row.session_id),
  blockId: String(row.block_id),
  status: row.status as HandoffStatus,
  agentTokenId: (row.agent_token_id as string | null) ?? null,
  agent: (row.agent as Agent | null) ?? null,
  visibleVariables: (row.visible_variables as { id: string; name: string }[] | null) ?? [],
  variables: (row.variables as Record<string, string> | null) ?? {},
  lastSeq: Number(row.last_seq),
  requestedAt: isoTimestamp(row.requested_at),
  claimedAt: isoTimestampOrNull(row.claimed_at),
  endedAt: isoTimestampOrNull(row.ended_at),
  deadline: isoTimestampOrNull(row.deadline),
  continuedAt: isoTimestampOrNull(row.continued_at),
})

const toEvent = (row: Record<string, unknown>): StoredHandoffEvent =>
  ({
    ...(row.body as Record<string, unknown>),
    seq: Number(row.seq),
    at: isoTimestamp(row.created_at),
    type: String(row.type),
    handoffId: String(row.handoff_id),
    position: Number(row.position),
  }) as StoredHandoffEvent

const EVENT_COLUMNS = 'handoff_id, seq, position, type, body, created_at'

export class HandoffsRepository {
  private readonly texts = new StatementTexts()

  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
  ) {}

  async find(id: string): Promise<HandoffRecord | undefined> {
    const rows = await this.db.query<Record<string, unknown>>(`SELECT ${COLUMNS} FROM ${this.t.handoffs} WHERE id = $1`, [id])
    return rows[0] && toRecord(rows[0])
  }

  /** One handoff with what the team's list shows of it (its flow's name, its last line). */
  async summary(id: string): Promise<(HandoffRecord & { flowName: string; lastMessage: string | null }) | undefined> {
    return (await this.listed('h.id = $2', [id], 1))[0]
  }

  /** The session's handoff: the one named, or its latest. */
  async findForSession(sessionId: string, handoffId?: string): Promise<HandoffRecord | undefined> {
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT ${COLUMNS} FROM ${this.t.handoffs} WHERE session_id = $1 AND ($2::text IS NULL OR id = $2)
       ORDER BY requested_at DESC, id DESC LIMIT 1`,
      [sessionId, handoffId ?? null],
    )
    return rows[0] && toRecord(rows[0])
  }

  /** A workspace's handoffs in these statuses, newest first, from before `cursor` (a position of the list). */
  async list(
    workspaceId: string,
    statuses: readonly HandoffStatus[],
    limit: number,
    before?: { requestedAt: string; id: string },
  ): Promise<(HandoffRecord & { flowName: string; lastMessage: string | null })[]> {
    return this.listed(
      `h.workspace_id = $2 AND h.status = ANY($3::text[])
       AND ($4::timestamptz IS NULL OR (h.requested_at, h.id) < ($4::timestamptz, $5::text))`,
      [workspaceId, statuses, before?.requestedAt ?? null, before?.id ?? null],
      limit,
    )
  }

  /** Handoffs with their flow's name and last line; `where` names its parameters from `$2` (`$1` is the limit). */
  private async listed(
    where: string,
    params: unknown[],
    limit: number,
  ): Promise<(HandoffRecord & { flowName: string; lastMessage: string | null })[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT ${COLUMNS.split(',')
        .map((column) => `h.${column.trim()}`)
        .join(', ')}, f.content ->> 'name' AS flow_name,
         (SELECT e.body ->> 'text' FROM ${this.t.handoffEvents} e
          WHERE e.handoff_id = h.id AND e.type = 'message' ORDER BY e.seq DESC LIMIT 1) AS last_message
       FROM ${this.t.handoffs} h JOIN ${this.t.flows} f ON f.id = h.flow_id
       WHERE ${where}
       ORDER BY h.requested_at DESC, h.id DESC LIMIT $1`,
      [limit, ...params],
    )
    return rows.map((row) => ({
      ...toRecord(row),
      flowName: typeof row.flow_name === 'string' ? row.flow_name : '',
      lastMessage: (row.last_message as string | null) ?? null,
    }))
  }

  /** The handoff's events after `afterSeq`, in order. */
  async events(handoffId: string, afterSeq: number, limit = 1_000): Promise<StoredHandoffEvent[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT ${EVENT_COLUMNS} FROM ${this.t.handoffEvents} WHERE handoff_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
      [handoffId, afterSeq, limit],
    )
    return rows.map(toEvent)
  }

  /** A workspace's events after `afterPosition`, in the order they committed (the inbox resuming). */
  async workspaceEvents(workspaceId: string, afterPosition: number, limit = 1_000): Promise<StoredHandoffEvent[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT ${EVENT_COLUMNS} FROM ${this.t.handoffEvents} WHERE workspace_id = $1 AND position > $2 ORDER BY position LIMIT $3`,
      [workspaceId, afterPosition, limit],
    )
    return rows.map(toEvent)
  }

  /** The workspace's latest position (where a new inbox stream starts). */
  async workspacePosition(workspaceId: string): Promise<number> {
    const rows = await this.db.query<{ position: string }>(`SELECT position FROM ${this.t.handoffPositions} WHERE workspace_id = $1`, [
      workspaceId,
    ])
    return rows[0] ? Number(rows[0].position) : 0
  }

  /** The message events of these results' handoffs, oldest first (results and their exports). */
  async messagesForResults(resultIds: readonly string[]): Promise<Map<string, StoredHandoffEvent[]>> {
    const byResult = new Map<string, StoredHandoffEvent[]>()
    if (resultIds.length === 0) return byResult
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT h.result_id, ${EVENT_COLUMNS.split(', ')
        .map((column) => `e.${column}`)
        .join(', ')}
       FROM ${this.t.handoffs} h JOIN ${this.t.handoffEvents} e ON e.handoff_id = h.id
       WHERE h.result_id = ANY($1::text[]) AND e.type = 'message'
       ORDER BY h.result_id, h.requested_at, e.handoff_id, e.seq`,
      [resultIds],
    )
    for (const row of rows) {
      const resultId = String(row.result_id)
      const list = byResult.get(resultId) ?? []
      list.push(toEvent(row))
      byResult.set(resultId, list)
    }
    return byResult
  }

  /**
   * Appends an event if the handoff allows `change` (and makes the change), in one statement:
   * the stored event, or undefined when the condition did not hold (claimed by someone else,
   * already ended, …). A visitor's message with an `idempotencyKey` already stored answers the
   * stored event (`replayed`).
   */
  async append(input: {
    handoffId: string
    change: Change
    type: HandoffEvent['type']
    body: Record<string, unknown>
    now: string
    idempotencyKey?: string
  }): Promise<{ event: StoredHandoffEvent; replayed: boolean; record: HandoffRecord } | undefined> {
    const { change } = input
    const condition = CONDITIONS[change.kind]
    const sql = this.texts.text(change.kind, () => {
      const t = this.t
      return `WITH h AS (
         UPDATE ${t.handoffs} SET last_seq = last_seq + 1${condition.set}
         WHERE id = $1 AND ${condition.where}
         RETURNING ${COLUMNS}),
       p AS (
         INSERT INTO ${t.handoffPositions} (workspace_id, position) SELECT workspace_id, 1 FROM h
         ON CONFLICT (workspace_id) DO UPDATE SET position = ${t.handoffPositions}.position + 1
         RETURNING position),
       e AS (
         INSERT INTO ${t.handoffEvents} (handoff_id, seq, workspace_id, position, type, body, idempotency_key, created_at)
         SELECT h.id, h.last_seq, h.workspace_id, p.position, $2, $3::jsonb, $5, $4 FROM h, p
         RETURNING ${EVENT_COLUMNS}),
       n AS (SELECT pg_notify('${t.handoffChannel}', json_build_object('h', h.id, 'w', h.workspace_id, 's', h.last_seq)::text) FROM h)
       SELECT h.*, e.handoff_id AS event_handoff_id, e.seq, e.position, e.type, e.body, e.created_at, (SELECT count(*) FROM n) AS notified,
         -- Every variant names every parameter, so each has a type.
         $6::text IS NULL AS no_agent_id, $7::jsonb IS NULL AS no_agent, $8::text IS NULL AS no_status
       FROM h, e`
    })
    const agent = change.kind === 'claim' || change.kind === 'transfer' ? change : undefined
    try {
      const rows = await this.db.query<Record<string, unknown>>(sql, [
        input.handoffId,
        input.type,
        JSON.stringify(input.body),
        input.now,
        input.idempotencyKey ?? null,
        agent?.agentTokenId ?? null,
        agent ? JSON.stringify(agent.agent) : null,
        change.kind === 'end' ? change.status : null,
      ])
      const row = rows[0]
      if (!row) return undefined
      return { event: toEvent({ ...row, handoff_id: row.event_handoff_id }), replayed: false, record: toRecord(row) }
    } catch (error) {
      if (!isUniqueViolation(error) || input.idempotencyKey === undefined) throw error
      const rows = await this.db.query<Record<string, unknown>>(
        `SELECT ${EVENT_COLUMNS} FROM ${this.t.handoffEvents} WHERE handoff_id = $1 AND idempotency_key = $2`,
        [input.handoffId, input.idempotencyKey],
      )
      const record = await this.find(input.handoffId)
      return rows[0] && record && { event: toEvent(rows[0]), replayed: true, record }
    }
  }

  /** Sets a variable the person may set (by name), on an open handoff; false when it is not open. */
  async setVariable(id: string, name: string, value: string): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE ${this.t.handoffs} SET variables = variables || jsonb_build_object($2::text, $3::text)
       WHERE id = $1 AND status IN ('waiting', 'live') RETURNING 1`,
      [id, name, value],
    )
    return rows.length > 0
  }

  /**
   * Handoffs whose flow must go on: waiting ones past their deadline, and ended ones whose flow
   * has not gone on `graceMs` after they ended (the process ending them stopped before).
   */
  async due(now: Date, graceMs: number, limit: number): Promise<{ id: string; status: HandoffStatus }[]> {
    const rows = await this.db.query<{ id: string; status: HandoffStatus }>(
      `(SELECT id, status FROM ${this.t.handoffs} WHERE status = 'waiting' AND deadline <= $1 ORDER BY deadline LIMIT $3)
       UNION ALL
       (SELECT id, status FROM ${this.t.handoffs}
        WHERE continued_at IS NULL AND status IN ('ended', 'unanswered', 'left') AND ended_at <= $2 ORDER BY ended_at LIMIT $3)`,
      [now.toISOString(), new Date(now.getTime() - graceMs).toISOString(), limit],
    )
    return rows
  }

  /** Open handoffs of a workspace (for the bounds on live work). */
  async countOpen(workspaceId: string): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${this.t.handoffs} WHERE workspace_id = $1 AND status IN ('waiting', 'live')`,
      [workspaceId],
    )
    return rows[0]?.n ?? 0
  }
}
