import { z } from 'zod/mini'
import { opt } from './common'
import { MAX_USER_ID_LENGTH } from './identity'

/**
 * A workspace's privacy API (secret token): how long it keeps visitors' data, erasing one
 * visitor's data, exporting it (an access request), and the audit of both
 * (docs/reference/http-api.md, docs/site-owners/privacy.md).
 */

/** The longest retention that can be set: about 27 years. */
export const MAX_RETENTION_DAYS = 10_000

/** `GET/PUT /v1/privacy/retention`: days after a visitor's last activity their data is deleted; null keeps it. */
export const retentionSettingSchema = z.object({
  retentionDays: z.nullable(z.number().check(z.int(), z.minimum(1), z.maximum(MAX_RETENTION_DAYS))),
})
export type RetentionSetting = z.infer<typeof retentionSettingSchema>

/** When the retention job (one for all workspaces) last ran: null before its first run; what it deleted is in the audit. */
export const retentionRunSchema = z.looseObject({
  startedAt: z.string(),
  finishedAt: opt(z.string()),
})

export const retentionResponseSchema = z.looseObject({
  retentionDays: z.nullable(z.number()),
  lastRun: opt(retentionRunSchema),
})

/** Longest selector value (a variable's value, a result id). */
export const MAX_SELECTOR_VALUE = 1_000

/**
 * How an owner names a visitor: one result's id, a signed-in user's id (their results in any of
 * the workspace's flows, the id compared exactly), or a variable's value (an e-mail address) in
 * any of the workspace's flows, compared without regard to case.
 */
export const visitorSelectorSchema = z.object({
  resultId: opt(z.string().check(z.minLength(1), z.maxLength(MAX_SELECTOR_VALUE))),
  userId: opt(z.string().check(z.minLength(1), z.maxLength(MAX_USER_ID_LENGTH))),
  variable: opt(z.string().check(z.minLength(1), z.maxLength(200))),
  value: opt(z.string().check(z.minLength(1), z.maxLength(MAX_SELECTOR_VALUE))),
})
export type VisitorSelectorInput = z.infer<typeof visitorSelectorSchema>

/** `POST /v1/privacy/erase`: the selector, and `dryRun` to count what would go without deleting. */
export const eraseRequestSchema = z.object({ ...visitorSelectorSchema.shape, dryRun: opt(z.boolean()) })
export type EraseRequest = z.infer<typeof eraseRequestSchema>

/** Rows of each kind: results, answers, sessions, uploads (files), logs, webhook deliveries, … */
export const heldCountsSchema = z.record(z.string(), z.number())

export const eraseResponseSchema = z.looseObject({
  dryRun: z.boolean(),
  /** The ids of the results found (a dry run's way to check them before erasing). */
  resultIds: z.array(z.string()),
  counts: heldCountsSchema,
})
export type EraseResponse = z.infer<typeof eraseResponseSchema>

/** `POST /v1/privacy/access`: everything held about the visitor, a result at a time. */
export const accessExportSchema = z.looseObject({
  exportedAt: z.string(),
  workspaceId: z.string(),
  results: z.array(z.looseObject({ id: z.string(), flow: z.looseObject({ id: z.string(), name: z.string() }) })),
})
export type AccessExport = z.infer<typeof accessExportSchema>

export const PRIVACY_ACTIONS = ['erase', 'access', 'retention'] as const

export const auditLineSchema = z.looseObject({
  id: z.string(),
  action: z.string(),
  /** What the visitor was found by ("result id", "variable Email"), never the value. */
  selector: z.nullable(z.string()),
  actor: z.string(),
  counts: heldCountsSchema,
  createdAt: z.string(),
})
export type AuditLine = z.infer<typeof auditLineSchema>
export const auditResponseSchema = z.looseObject({ audit: z.array(auditLineSchema) })
