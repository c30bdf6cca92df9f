import { z } from 'zod/mini'
import { opt } from './common'
import { resultColumnSchema, resultRowSchema } from './results'

/**
 * A flow's completion webhook: an HTTP POST to the owner's address when a result completes,
 * signed the Standard Webhooks way (headers below; see docs/reference/http-api.md), retried
 * with backoff, its deliveries listed.
 */

export const WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const

export const MAX_WEBHOOK_URL_LENGTH = 2_048

export const webhookSchema = z.looseObject({
  url: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export const webhookResponseSchema = z.looseObject({ webhook: z.nullable(webhookSchema) })

export const setWebhookRequestSchema = z.object({
  url: z.string().check(z.maxLength(MAX_WEBHOOK_URL_LENGTH)),
  /** Make a new signing secret (one is made anyway when the flow has no webhook yet). */
  rotateSecret: opt(z.boolean()),
})
/** `secret` (`whsec_…`) only when it was made by this call: shown this once. */
export const setWebhookResponseSchema = z.looseObject({ webhook: webhookSchema, secret: opt(z.string()) })

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'sending', 'delivered', 'failed', 'cancelled'] as const

export const webhookAttemptSchema = z.looseObject({
  at: z.string(),
  /** The receiver's HTTP status, when it answered. */
  status: opt(z.number()),
  /** Why the attempt failed, when it did. */
  error: opt(z.string()),
})

export const webhookDeliverySchema = z.looseObject({
  id: z.string(),
  event: z.string(),
  resultId: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.array(webhookAttemptSchema),
  /** When the next attempt is due (pending) or the current one's hold ends (sending). */
  nextAttemptAt: z.nullable(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The last request sent, exactly: its signed headers and body. */
  request: z.nullable(z.looseObject({ headers: z.record(z.string(), z.string()), body: z.string() })),
})
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>
export const webhookDeliveriesResponseSchema = z.looseObject({ deliveries: z.array(webhookDeliverySchema) })
export const MAX_DELIVERIES_PAGE = 200

/** The body of a `result.completed` call. */
export const completionEventSchema = z.looseObject({
  type: z.literal('result.completed'),
  timestamp: z.string(),
  data: z.looseObject({
    flow: z.looseObject({ id: z.string(), publicId: z.string(), name: z.string() }),
    columns: z.array(resultColumnSchema),
    result: resultRowSchema,
  }),
})
export type CompletionEvent = z.infer<typeof completionEventSchema>
