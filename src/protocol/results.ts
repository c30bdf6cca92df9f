import { z } from 'zod/mini'
import { opt } from './common'

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
