import { z } from 'zod/mini'

/**
 * Where visitors drop off: `GET /v1/flows/{id}/analytics` (secret token), read by the console's
 * Drop-off view and any other client (docs/reference/http-api.md, docs/site-owners/console.md).
 *
 * A conversation is one result. It *reached* a block when it answered it (only input blocks take
 * answers, so only they are counted), and a group when it answered any block in it. An unfinished
 * conversation *stopped after* the block it answered last (or before answering anything).
 * docs/decisions/2026-11-28-drop-off-from-answers.md says why.
 */

/** The longest date range one request covers (a year, leap day included): the work per request stays bounded. */
export const MAX_ANALYTICS_DAYS = 366
/** The range when the request gives no `from`: the 30 days up to `to`. */
export const DEFAULT_ANALYTICS_DAYS = 30

const DATE = /^\d{4}-\d{2}-\d{2}$/
/** A calendar date `YYYY-MM-DD` that exists (2026-02-30 does not), from 1970 on. */
const calendarDate = () =>
  z
    .string()
    .check(z.refine((value) => DATE.test(value) && isCalendarDate(value), { message: 'Expected a date such as 2026-11-28 (YYYY-MM-DD)' }))

/** `json` (the default) or `csv`: the same figures as a file, a row per step of the funnel. */
export const ANALYTICS_FORMATS = ['json', 'csv'] as const
export type AnalyticsFormat = (typeof ANALYTICS_FORMATS)[number]

/**
 * The query: `version` (a version's number; all versions when left out), `from` and `to` (UTC
 * dates, both included; the 30 days up to today when left out), `format`. Each at most once,
 * nothing else.
 */
export const analyticsQuerySchema = z.strictObject({
  format: z.optional(z.enum(ANALYTICS_FORMATS)),
  version: z.optional(
    z.string().check(z.refine((value) => /^[1-9][0-9]{0,8}$/.test(value), { message: 'Expected a version number (1, 2, 3…)' })),
  ),
  from: z.optional(calendarDate()),
  to: z.optional(calendarDate()),
})
export type AnalyticsQueryInput = z.infer<typeof analyticsQuerySchema>

/** One block's figures. */
export const blockFiguresSchema = z.looseObject({
  id: z.string(),
  /** The block's type in the version shown; null for a block that version no longer has. */
  type: z.nullable(z.string()),
  /** Conversations that answered it at least once. */
  reached: z.number(),
  /** Unfinished conversations whose last answer was this block's: they left at what came after it. */
  stoppedAfter: z.number(),
})
export type BlockFigures = z.infer<typeof blockFiguresSchema>

/** One group's figures, and its input blocks' in the flow's order. */
export const groupFiguresSchema = z.looseObject({
  id: z.string(),
  /** The group's title in the version shown; null for a group that version no longer has. */
  title: z.nullable(z.string()),
  /** Conversations that answered at least one of its blocks. */
  reached: z.number(),
  /** Unfinished conversations whose last answer was in this group. */
  stoppedAfter: z.number(),
  blocks: z.array(blockFiguresSchema),
})
export type GroupFigures = z.infer<typeof groupFiguresSchema>

export const flowAnalyticsSchema = z.looseObject({
  flowId: z.string(),
  /** The version counted; null: all of them. */
  version: z.nullable(z.number()),
  /** First and last day counted (UTC, both included): conversations that started on those days. */
  from: z.string(),
  to: z.string(),
  /** Conversations started in the range (results). */
  started: z.number(),
  completed: z.number(),
  /** completed / started, from 0 to 1; null when none started. */
  completionRate: z.nullable(z.number()),
  /** Median seconds from the start to the step that completed it; null when none completed. */
  medianSecondsToComplete: z.nullable(z.number()),
  /** Unfinished conversations that never answered anything. */
  stoppedBeforeAnswering: z.number(),
  /**
   * The flow's groups in the order of the version shown (the one asked for, else the live one,
   * else the draft), each with its input blocks; groups and blocks only other versions had come last.
   */
  groups: z.array(groupFiguresSchema),
})
export type FlowAnalytics = z.infer<typeof flowAnalyticsSchema>

/** Whether `YYYY-MM-DD` names a real day from 1970 to 9999. */
export function isCalendarDate(value: string): boolean {
  const ms = Date.parse(`${value}T00:00:00Z`)
  return Number.isFinite(ms) && ms >= 0 && new Date(ms).toISOString().slice(0, 10) === value
}

/** `date` moved by `days` (UTC), as `YYYY-MM-DD`. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
}
