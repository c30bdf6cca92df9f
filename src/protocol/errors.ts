import { z } from 'zod/mini'
import { opt } from './common'

/** Every error code the service sends, by HTTP status (contract.md, "Errors"). */
export const ERROR_CODES = {
  invalid_body: 400,
  invalid_query: 400,
  unauthorized: 401,
  forbidden: 403,
  origin_not_allowed: 403,
  flow_not_found: 404,
  session_not_found: 404,
  not_published: 404,
  not_found: 404,
  conflict: 409,
  flow_closed: 410,
  session_expired: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  /** An outside server the request depends on (an AI provider) refused or could not be reached. */
  upstream_failed: 502,
} as const
export type ErrorCode = keyof typeof ERROR_CODES

export const errorBodySchema = z.looseObject({
  error: z.looseObject({
    code: z.string(),
    message: z.string(),
    details: opt(z.unknown()),
  }),
})
export type ErrorBody = z.infer<typeof errorBodySchema>
