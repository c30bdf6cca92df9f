import type { Queryable } from './database'
import type { Tables } from './tables'

/** The conversations counted: one flow's results started in [from, to), of one version or all. */
export interface AnalyticsScope {
  flowId: string
  /** Inclusive, an ISO timestamp. */
  from: string
  /** Exclusive, an ISO timestamp. */
  to: string
  /** A version's number; null counts every version. */
  version: number | null
}

export interface ConversationTotals {
  started: number
  completed: number
  /** Median seconds from a result's start to its completion; null when none completed. */
  medianSecondsToComplete: number | null
}

/** One block's (or, with `blockId` null, one group's) figures; `groupId` null: before any answer. */
export interface AnsweredFigures {
  groupId: string | null
  blockId: string | null
  reached: number
  stoppedAfter: number
}

/**
 * Where a flow's visitors drop off, counted by the database: two aggregate statements over the
 * results the scope names (results_flow_created_idx) and their answers, read from the covering
 * answers_result_position_idx (migration 15) without visiting the answers' rows. Nothing but the
 * counts comes back to Node.
 */
export class AnalyticsRepository {
  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
  ) {}

  async totals(scope: AnalyticsScope): Promise<ConversationTotals> {
    const rows = await this.db.query<{ started: number; completed: number; median_seconds: number | string | null }>(
      `SELECT count(*)::int AS started,
         count(*) FILTER (WHERE r.is_completed)::int AS completed,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM r.completed_at - r.created_at))
           FILTER (WHERE r.is_completed AND r.completed_at IS NOT NULL) AS median_seconds
       FROM ${this.t.results} r
       WHERE ${SCOPE}`,
      scopeParams(scope),
    )
    const row = rows[0]
    return {
      started: Number(row?.started ?? 0),
      completed: Number(row?.completed ?? 0),
      medianSecondsToComplete: row?.median_seconds == null ? null : Number(row.median_seconds),
    }
  }

  /**
   * Per block: the conversations that answered it, and the unfinished ones whose latest answer
   * it holds (ties by the answers' order of writing). Per group (`blockId` null): the
   * conversations that answered any of its blocks, each once (`stoppedAfter` 0: the sum of its
   * blocks'). The unfinished ones without any answer: one row with `groupId` null.
   */
  async answeredFigures(scope: AnalyticsScope): Promise<AnsweredFigures[]> {
    const rows = await this.db.query<{ group_id: string | null; block_id: string | null; reached: number; stopped: number }>(
      `WITH r AS MATERIALIZED (
         SELECT r.id, r.is_completed FROM ${this.t.results} r WHERE ${SCOPE}),
       reached AS (
         SELECT a.group_id, a.block_id, count(DISTINCT a.result_id)::int AS n
         FROM r JOIN ${this.t.answers} a ON a.result_id = r.id
         GROUP BY GROUPING SETS ((a.group_id, a.block_id), (a.group_id))),
       stopped AS (
         SELECT l.group_id, l.block_id, count(*)::int AS n
         FROM r LEFT JOIN LATERAL (
           SELECT a.group_id, a.block_id FROM ${this.t.answers} a
           WHERE a.result_id = r.id ORDER BY a.created_at DESC, a.id DESC LIMIT 1) l ON true
         WHERE NOT r.is_completed
         GROUP BY l.group_id, l.block_id)
       SELECT group_id, block_id, sum(reached)::int AS reached, sum(stopped)::int AS stopped
       FROM (SELECT group_id, block_id, n AS reached, 0 AS stopped FROM reached
             UNION ALL SELECT group_id, block_id, 0, n FROM stopped) x
       GROUP BY group_id, block_id`,
      scopeParams(scope),
    )
    return rows.map((row) => ({
      groupId: row.group_id,
      blockId: row.block_id,
      reached: Number(row.reached),
      stoppedAfter: Number(row.stopped),
    }))
  }
}

const SCOPE = 'r.flow_id = $1 AND r.created_at >= $2 AND r.created_at < $3 AND ($4::int IS NULL OR r.version = $4::int)'

const scopeParams = (scope: AnalyticsScope) => [scope.flowId, scope.from, scope.to, scope.version]
