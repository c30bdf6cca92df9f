import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

/**
 * Completion webhooks are signed the Standard Webhooks way, which receivers can check with a few
 * lines or an existing library: the secret is `whsec_` and the base64 of 32 random bytes; each
 * request carries `webhook-id` (the delivery's id, the same on every retry), `webhook-timestamp`
 * (Unix seconds when this attempt was signed) and `webhook-signature`: `v1,` and the base64
 * HMAC-SHA256, keyed with the secret's bytes, of `{webhook-id}.{webhook-timestamp}.{body}`.
 */

const SECRET_PREFIX = 'whsec_'

export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`
}

function secretBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64')
}

export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', secretBytes(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`
}

/**
 * What a receiver does: true when one of the signatures in `signature` (space-separated) is this
 * body's, and `timestamp` is within `toleranceSeconds` of `nowSeconds` (an old request replayed
 * is refused).
 */
export function verifyWebhook(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const timestamp = Number(headers.timestamp)
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false
  const expected = Buffer.from(signWebhook(secret, headers.id, timestamp, body))
  return headers.signature.split(' ').some((candidate) => {
    const given = Buffer.from(candidate)
    return given.length === expected.length && timingSafeEqual(given, expected)
  })
}
