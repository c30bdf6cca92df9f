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
}

/** One answer as the results keep it. */
export interface AnswerRecord {
  blockId: string
  groupId: string
  variableId?: string
  /** The answer as stored (after formatting). */
  value: string
}

export interface StoredAnswer extends AnswerRecord {
  /** The session (visit) that collected it; it may have been purged since. */
  sessionId: string
  createdAt: string
}

interface ResultRow {
  id: string
  flow_id: string
  variables: Record<string, VariableValue>
  is_completed: boolean
  created_at: unknown
  updated_at: unknown
}

const COLUMNS = 'id, flow_id, variables, is_completed, created_at, updated_at'

const toRecord = (row: ResultRow): ResultRecord => ({
  id: row.id,
  flowId: row.flow_id,
  variables: row.variables,
  isCompleted: row.is_completed,
  createdAt: isoTimestamp(row.created_at),
  updatedAt: isoTimestamp(row.updated_at),
})

export class ResultsRepository {
  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
  ) {}

  /** A result only counts for the flow it was given to. */
  async findForFlow(id: string, flowId: string): Promise<ResultRecord | undefined> {
    const rows = await this.db.query<ResultRow>(
      `SELECT ${COLUMNS} FROM ${this.t.results} WHERE id = $1 AND flow_id = $2`,
      [id, flowId],
    )
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
      created_at: unknown
    }>(
      `SELECT session_id, block_id, group_id, variable_id, value, created_at
       FROM ${this.t.answers} WHERE result_id = $1 ORDER BY id`,
      [resultId],
    )
    return rows.map((row) => ({
      sessionId: row.session_id,
      blockId: row.block_id,
      groupId: row.group_id,
      ...(row.variable_id === null ? {} : { variableId: row.variable_id }),
      value: row.value,
      createdAt: isoTimestamp(row.created_at),
    }))
  }
}
