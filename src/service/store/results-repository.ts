import type { VariableValue } from '../../protocol/index'
import type { Queryable } from './database'
import { isoTimestamp, type Tables } from './tables'

/** What one visitor gave a flow, across every session that resumed it. */
export interface ResultRecord {
  id: string
  flowId: string
  /** Latest variable values by variable id: what a resumed visit starts from. */
  variables: Record<string, VariableValue>
  isCompleted: boolean
  createdAt: string
  updatedAt: string
  /** The number of the flow version its conversation ran (the latest, when resumed); null before versions were numbered. */
  version: number | null
  /** The verified user the conversation belongs to; null when anonymous. */
  userId: string | null
}

/** One answer as the results keep it. */
export interface AnswerRecord {
  blockId: string
  groupId: string
  variableId?: string
  /** The answer as stored (after formatting). */
  value: string
  /** What the visitor's bubble showed, when it differs from `value` (a choice's label). */
  display?: string
}

export interface StoredAnswer extends AnswerRecord {
  /** The session (visit) that collected it; it may have been purged since. */
  sessionId: string
  createdAt: string
}

/** Which results a list or an export reads; every field narrows it. */
export interface ResultFilters {
  completed?: boolean
  /** Created at or after (ISO 8601). */
  from?: string
  /** Created before (ISO 8601). */
  to?: string
  /** Some answer contains this text, whatever its case. */
  text?: string
  /** The conversation belongs to this verified user (exactly). */
  userId?: string
}

/** Where a page of results, newest first, goes on from: the last result of the page before. */
export interface ResultPosition {
  createdAt: string
  id: string
}

interface ResultRow {
  id: string
  flow_id: string
  variables: Record<string, VariableValue>
  is_completed: boolean
  created_at: unknown
  updated_at: unknown
  version: number | null
  user_id: string | null
}

const COLUMNS = 'id, flow_id, variables, is_completed, created_at, updated_at, version, user_id'

const toRecord = (row: ResultRow): ResultRecord => ({
  id: row.id,
  flowId: row.flow_id,
  variables: row.variables,
  isCompleted: row.is_completed,
  createdAt: isoTimestamp(row.created_at),
  updatedAt: isoTimestamp(row.updated_at),
  version: row.version === null || row.version === undefined ? null : Number(row.version),
  userId: row.user_id ?? null,
})

export class ResultsRepository {
  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
  ) {}

  /** A result only counts for the flow it was given to. */
  async findForFlow(id: string, flowId: string): Promise<ResultRecord | undefined> {
    const rows = await this.db.query<ResultRow>(`SELECT ${COLUMNS} FROM ${this.t.results} WHERE id = $1 AND flow_id = $2`, [id, flowId])
    return rows[0] && toRecord(rows[0])
  }

  /** Answers in the order they were given. */
  async listAnswers(resultId: string): Promise<StoredAnswer[]> {
    const rows = await this.db.query<{
      session_id: string
      block_id: string
      group_id: string
      variable_id: string | null
      value: string
      display: string | null
      created_at: unknown
    }>(
      `SELECT session_id, block_id, group_id, variable_id, value, display, created_at
       FROM ${this.t.answers} WHERE result_id = $1 ORDER BY id`,
      [resultId],
    )
    return rows.map((row) => ({
      sessionId: row.session_id,
      blockId: row.block_id,
      groupId: row.group_id,
      ...(row.variable_id === null ? {} : { variableId: row.variable_id }),
      value: row.value,
      ...(row.display === null ? {} : { display: row.display }),
      createdAt: isoTimestamp(row.created_at),
    }))
  }

  /**
   * Results of a flow, newest first, from `after` on (exclusive), at most `limit`. Only the
   * conditions given are in the statement, so the position is a bound of the index scan
   * (results_flow_created_idx read backwards) and every page costs the same, deep ones too.
   */
  async page(flowId: string, filters: ResultFilters, after: ResultPosition | undefined, limit: number): Promise<ResultRecord[]> {
    const params: unknown[] = [flowId]
    const where = [`r.flow_id = $1`]
    const param = (value: unknown) => `$${params.push(value)}`
    if (filters.completed !== undefined) where.push(`r.is_completed = ${param(filters.completed)}`)
    if (filters.from !== undefined) where.push(`r.created_at >= ${param(filters.from)}::timestamptz`)
    if (filters.to !== undefined) where.push(`r.created_at < ${param(filters.to)}::timestamptz`)
    if (filters.userId !== undefined) where.push(`r.user_id = ${param(filters.userId)}`)
    if (filters.text !== undefined) {
      // What was stored or what the visitor saw: an owner searches for the words they read.
      const text = param(likePattern(filters.text))
      where.push(
        `EXISTS (SELECT 1 FROM ${this.t.answers} a WHERE a.result_id = r.id AND (a.value ILIKE ${text} ESCAPE '\\' OR a.display ILIKE ${text} ESCAPE '\\'))`,
      )
    }
    if (after) where.push(`(r.created_at, r.id) < (${param(after.createdAt)}::timestamptz, ${param(after.id)})`)
    const rows = await this.db.query<ResultRow>(
      `SELECT ${COLUMNS} FROM ${this.t.results} r WHERE ${where.join(' AND ')}
       ORDER BY r.created_at DESC, r.id DESC LIMIT ${param(limit)}`,
      params,
    )
    return rows.map(toRecord)
  }

  /** The latest answer to each block, for each of `resultIds`: what a results table shows. */
  async latestAnswers(resultIds: readonly string[]): Promise<Map<string, Map<string, string>>> {
    const byResult = new Map<string, Map<string, string>>()
    if (resultIds.length === 0) return byResult
    const rows = await this.db.query<{ result_id: string; block_id: string; value: string }>(
      `SELECT DISTINCT ON (result_id, block_id) result_id, block_id, value
       FROM ${this.t.answers} WHERE result_id = ANY($1::text[])
       ORDER BY result_id, block_id, id DESC`,
      [resultIds],
    )
    for (const row of rows) {
      let answers = byResult.get(row.result_id)
      if (!answers) byResult.set(row.result_id, (answers = new Map()))
      answers.set(row.block_id, row.value)
    }
    return byResult
  }

  /**
   * Deletes results of `flowId` only (the ids given, or all of them when `ids` is undefined), at
   * most `limit` per call, with their sessions, answers, logs and webhook deliveries (the
   * tables' cascades). Returns the ids deleted.
   */
  async deleteForFlow(flowId: string, ids: readonly string[] | undefined, limit: number): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `DELETE FROM ${this.t.results} WHERE id IN (
         SELECT id FROM ${this.t.results} WHERE flow_id = $1 AND ($2::text[] IS NULL OR id = ANY($2::text[])) LIMIT $3)
       RETURNING id`,
      [flowId, ids ?? null, limit],
    )
    return rows.map((row) => row.id)
  }
}

/** `text` as an ILIKE pattern matching it anywhere, its own `%`, `_` and `\` taken literally. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}
