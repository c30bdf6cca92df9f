import type { AnswerRecord } from './results-repository'
import type { SessionRecord } from './sessions-repository'
import type { Tables } from './tables'

/**
 * What a chat step writes, and the pieces of SQL that write it: the step's one commit
 * statement (chat-steps-repository.ts) inserts answers, linked results and logs given as JSON
 * arrays, for its session row `s`, in common table expressions built here.
 */

/** An answer to write; one with a `resultId` belongs to that linked flow's own result. */
export interface AnswerWrite extends AnswerRecord {
  resultId?: string
}

/** A result of its own that a linked flow writes to (links that do not merge with their caller). */
export interface LinkedResultWrite {
  id: string
  flowId: string
  variables: Record<string, unknown>
  isCompleted: boolean
}

/** A log a step wrote, stored with the session's result (sensitive ones included). */
export interface LogWrite {
  status: string
  description: string
  details?: unknown
}

/** What any step writes: the session's state and what the step gave its result(s). */
export interface StepWrite {
  /** `JSON.stringify(state)`: stored in the session, its variables in the result. */
  stateJson: string
  /** Answers in order; one with a `resultId` belongs to that linked result. */
  answers: readonly AnswerWrite[]
  linkedResults?: readonly LinkedResultWrite[]
  logs?: readonly LogWrite[]
  ended: boolean
  /** The id a completion webhook delivery gets, when this step completes a result whose flow has a webhook. */
  deliveryId: string
  timestamp: string
  expiresAt: string
}

export interface AnswerCommit extends StepWrite {
  sessionId: string
  leaseOwner: string
  /** The step's response: kept as the session's last step when it belongs to a verified user. */
  response?: string
  idempotency?: { key: string; requestHash: string; response: string }
}

export interface StartCommit extends StepWrite {
  session: Pick<SessionRecord, 'id' | 'flowId' | 'resultId' | 'publishedFlowId' | 'publishedVersionId' | 'publishedAt'>
  /** True when the result is new; false when the start resumes an earlier result. */
  newResult: boolean
  /** The number of the version the conversation runs, kept on its result. */
  versionNumber: number
  /** The verified user the conversation belongs to, and the step's response another device resumes at. */
  user?: { id: string; lastStep: string }
}

export function answersJson(answers: readonly AnswerWrite[]): string {
  return JSON.stringify(
    answers.map((a) => ({
      result_id: a.resultId ?? null,
      block_id: a.blockId,
      group_id: a.groupId,
      variable_id: a.variableId ?? null,
      value: a.value,
      display: a.display ?? null,
    })),
  )
}

export function linkedResultsJson(results: readonly LinkedResultWrite[]): string {
  return JSON.stringify(results.map((r) => ({ id: r.id, flow_id: r.flowId, variables: r.variables, is_completed: r.isCompleted })))
}

/**
 * Creates or updates linked flows' own results (`lr`), for the session row `s` of the statement.
 * Their answers reference them in the same statement: foreign keys are checked at its end.
 */
export function linkedResultsCte(t: Tables, results: string, timestamp: string): string {
  return `lr AS (
    INSERT INTO ${t.results} (id, flow_id, variables, is_completed, created_at, updated_at, completed_at)
    SELECT x.id, x.flow_id, x.variables, x.is_completed, ${timestamp}, ${timestamp},
      CASE WHEN x.is_completed THEN ${timestamp}::timestamptz END
    FROM s, jsonb_to_recordset(${results}::jsonb) AS x(id text, flow_id text, variables jsonb, is_completed boolean)
    ON CONFLICT (id) DO UPDATE SET variables = EXCLUDED.variables,
      is_completed = ${t.results}.is_completed OR EXCLUDED.is_completed, updated_at = EXCLUDED.updated_at,
      completed_at = COALESCE(${t.results}.completed_at, EXCLUDED.completed_at))`
}

/** Inserts the answers given as a JSON array, in order, for the session row `s` of the statement. */
export function answersCte(t: Tables, answers: string, createdAt: string): string {
  return `a AS (
    INSERT INTO ${t.answers} (result_id, session_id, block_id, group_id, variable_id, value, display, created_at)
    SELECT COALESCE(x.result_id, s.result_id), s.id, x.block_id, x.group_id, x.variable_id, x.value, x.display, ${createdAt}
    FROM s, ROWS FROM (jsonb_to_recordset(${answers}::jsonb)
      AS (result_id text, block_id text, group_id text, variable_id text, value text, display text))
      WITH ORDINALITY AS x(result_id, block_id, group_id, variable_id, value, display, n)
    ORDER BY x.n)`
}

/** Inserts the step's logs given as a JSON array, in order, for the session row `s` of the statement. */
export function logsCte(t: Tables, logs: string, createdAt: string): string {
  return `lg AS (
    INSERT INTO ${t.resultLogs} (result_id, session_id, status, description, details, created_at)
    SELECT s.result_id, s.id, x.log ->> 'status', x.log ->> 'description', x.log -> 'details', ${createdAt}
    FROM s, jsonb_array_elements(${logs}::jsonb) WITH ORDINALITY AS x(log, n)
    ORDER BY x.n)`
}

/**
 * Queues the completion webhook of the session row `s` (which returns its `flow_id` and
 * `result_id`) when the step ends it and its flow has a webhook: in the step's own statement, so
 * a completed result is never without its delivery. A result completes once: a second completion
 * (a resumed result) queues nothing.
 */
export function completionWebhookCte(t: Tables, deliveryId: string, ended: string, timestamp: string): string {
  return `wh AS (
    INSERT INTO ${t.webhookDeliveries} (id, flow_id, result_id, event, status, next_attempt_at, created_at, updated_at)
    SELECT ${deliveryId}, s.flow_id, s.result_id, 'result.completed', 'pending', ${timestamp}, ${timestamp}, ${timestamp}
    FROM s JOIN ${t.flowWebhooks} w ON w.flow_id = s.flow_id
    WHERE ${ended}::boolean
    ON CONFLICT (result_id, event) WHERE handoff_id IS NULL DO NOTHING)`
}

/**
 * Records the handoff a step's state awaits (a `handoff` block reached): the handoff row, its
 * first event (`waiting`, seq 1, the workspace's next position), its `handoff.requested` delivery
 * when the flow has a webhook, and a notification to every process's inbox (sent at commit). All
 * in the step's own statement, so a session never waits for a handoff no one can see. Only
 * statements for such steps carry these CTEs (`ho` … `hn`); the final SELECT must name `hn`.
 */
export function handoffRequestCtes(t: Tables, state: string, timestamp: string): string {
  const awaiting = `(${state}::jsonb -> 'awaiting')`
  return `ho AS (
    INSERT INTO ${t.handoffs} (id, workspace_id, flow_id, result_id, session_id, block_id, status, visible_variables,
      last_seq, requested_at, deadline)
    SELECT ${awaiting} ->> 'handoffId', f.workspace_id, s.flow_id, s.result_id, s.id, ${awaiting} ->> 'blockId', 'waiting',
      COALESCE(${awaiting} -> 'variables', '[]'::jsonb), 1, ${timestamp}, (${awaiting} ->> 'deadline')::timestamptz
    FROM s JOIN ${t.flows} f ON f.id = s.flow_id
    WHERE ${awaiting} ->> 'kind' = 'handoff'
    ON CONFLICT (id) DO NOTHING
    RETURNING id, workspace_id, flow_id, result_id),
  hp AS (
    INSERT INTO ${t.handoffPositions} (workspace_id, position) SELECT workspace_id, 1 FROM ho
    ON CONFLICT (workspace_id) DO UPDATE SET position = ${t.handoffPositions}.position + 1
    RETURNING workspace_id, position),
  he AS (
    INSERT INTO ${t.handoffEvents} (handoff_id, seq, workspace_id, position, type, body, created_at)
    SELECT ho.id, 1, ho.workspace_id, hp.position, 'status', '{"status":"waiting"}'::jsonb, ${timestamp}
    FROM ho JOIN hp ON hp.workspace_id = ho.workspace_id),
  hw AS (
    INSERT INTO ${t.webhookDeliveries} (id, flow_id, result_id, event, status, next_attempt_at, created_at, updated_at, handoff_id)
    SELECT 'handoff-requested-' || ho.id, ho.flow_id, ho.result_id, 'handoff.requested', 'pending', ${timestamp}, ${timestamp}, ${timestamp}, ho.id
    FROM ho JOIN ${t.flowWebhooks} w ON w.flow_id = ho.flow_id
    ON CONFLICT DO NOTHING),
  hn AS (SELECT pg_notify('${t.handoffChannel}', json_build_object('h', ho.id, 'w', ho.workspace_id, 's', 1)::text) FROM ho)`
}
