import { z } from 'zod/mini'
import { opt, variableValue } from './common'

/**
 * What the secret-token API shows about results besides their answers: the logs every step
 * wrote (including those kept from the widget), and e-mails kept in the outbox.
 */
export const resultLogSchema = z.looseObject({
  status: z.string(),
  description: z.string(),
  details: opt(z.unknown()),
  sessionId: z.nullable(z.string()),
  createdAt: z.string(),
})
export const resultLogsResponseSchema = z.looseObject({ logs: z.array(resultLogSchema) })

export const outboxEmailSchema = z.looseObject({
  id: z.string(),
  flowId: z.nullable(z.string()),
  resultId: z.nullable(z.string()),
  createdAt: z.string(),
  message: z.looseObject({
    from: z.string(),
    to: z.array(z.string()),
    cc: z.array(z.string()),
    bcc: z.array(z.string()),
    replyTo: opt(z.string()),
    subject: z.string(),
    text: opt(z.string()),
    html: opt(z.string()),
  }),
})
export type OutboxEmail = z.infer<typeof outboxEmailSchema>
export const outboxResponseSchema = z.looseObject({ emails: z.array(outboxEmailSchema) })

/** Most e-mails one outbox read returns (newest first). */
export const MAX_OUTBOX_PAGE = 200

/**
 * A flow's results as a table: one column per input block and per variable (a variable an input
 * block saves to is that block's column), and one row per result with its cells by column id.
 * Column ids are the flow's own block and variable ids, as `resultsTablePreferences` names them.
 */
export const RESULT_COLUMN_KINDS = ['input', 'variable'] as const

export const resultColumnSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  /** `input` (an input block's answers) or `variable` (a variable no input block saves to). */
  kind: z.string(),
  blockId: opt(z.string()),
  groupId: opt(z.string()),
  /** The input block's type (`email input`, …). */
  blockType: opt(z.string()),
  /** The variable the column shows, or the one its input block saves to. */
  variableId: opt(z.string()),
  /** `resultsTablePreferences.columnsVisibility[id] === false`. */
  hidden: z.boolean(),
  /** `resultsTablePreferences.columnsWidth[id]`, in pixels. */
  width: opt(z.number()),
})
export type ResultColumn = z.infer<typeof resultColumnSchema>

/** A row of the table: cells by column id; a column with no value has no cell. */
export const resultRowSchema = z.looseObject({
  id: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  isCompleted: z.boolean(),
  /** The number of the flow version the conversation ran (its latest, when resumed); null for results from before versions were numbered. */
  version: opt(z.number()),
  /** The verified user the conversation belongs to (identity verification); null when anonymous. */
  userId: opt(z.string()),
  cells: z.record(z.string(), variableValue),
})
export type ResultRow = z.infer<typeof resultRowSchema>

export const resultsPageSchema = z.looseObject({
  columns: z.array(resultColumnSchema),
  results: z.array(resultRowSchema),
  /** Pass as `cursor` with the same filters for the next page; null on the last page. */
  nextCursor: z.nullable(z.string()),
})
export type ResultsPage = z.infer<typeof resultsPageSchema>

/** One answer as the visitor gave it, in order. */
export const resultAnswerSchema = z.looseObject({
  blockId: z.string(),
  groupId: z.string(),
  variableId: opt(z.string()),
  /** The column showing this block's answers; null for a block no version of the flow has (a linked flow's). */
  columnId: z.nullable(z.string()),
  /** The answer as stored: what the input's variable received (a choice's value), what the table and exports show. */
  value: z.string(),
  /** The answer as the visitor's bubble showed it (a choice's label); `value` when they are the same. */
  display: z.string(),
  sessionId: z.string(),
  createdAt: z.string(),
})

export const resultDetailSchema = z.looseObject({
  columns: z.array(resultColumnSchema),
  result: z.looseObject({
    ...resultRowSchema.shape,
    flowId: z.string(),
    answers: z.array(resultAnswerSchema),
    /** Every variable value the result holds, in the flow's order; `name` null for one the flow no longer has. */
    variables: z.array(z.looseObject({ id: z.string(), name: z.nullable(z.string()), value: variableValue })),
    logs: z.array(resultLogSchema),
    /** The lines said with a person (handoff blocks), oldest first. */
    conversation: opt(
      z.array(
        z.looseObject({
          handoffId: z.string(),
          at: z.string(),
          author: z.enum(['visitor', 'agent', 'system']),
          text: z.string(),
          agent: opt(z.looseObject({ name: z.string(), avatarUrl: opt(z.string()) })),
        }),
      ),
    ),
  }),
})
export type ResultDetail = z.infer<typeof resultDetailSchema>

/** Limits of the results API: a page, a search text, a delete. */
export const RESULTS_LIMITS = {
  defaultPage: 50,
  maxPage: 100,
  maxSearchLength: 200,
  maxDeleteIds: 1_000,
  /** A cursor is refused this long after it was made. */
  cursorMaxAgeMs: 24 * 60 * 60 * 1000,
} as const

/** Several results by id, or every result of the flow. */
export const deleteResultsRequestSchema = z.object({
  resultIds: opt(z.array(z.string()).check(z.minLength(1), z.maxLength(RESULTS_LIMITS.maxDeleteIds))),
  all: opt(z.literal(true)),
})
export const deleteResultsResponseSchema = z.looseObject({ deleted: z.number() })

export const EXPORT_FORMATS = ['csv', 'jsonl'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]
