import { createHash, createHmac, timingSafeEqual } from 'node:crypto'

/**
 * Who may read the demo's outbox (visitors' answers): whoever gives the demo's secret token, once,
 * in a form posted to the page (never in its address, so it stays out of access logs, history
 * and referrers). The browser then keeps a cookie for a while: a value derived from the token,
 * which opens this page and nothing else (it is no token the API accepts).
 */
export const OUTBOX_COOKIE = 'demo_outbox'
export const OUTBOX_COOKIE_SECONDS = 12 * 60 * 60

export interface OutboxAccess {
  /** The cookie value that opens the outbox. */
  readonly cookie: string
  /** The token typed into the form is the secret token. */
  isSecretToken(value: unknown): boolean
  /** The cookie a request carries opens the outbox. */
  admits(cookie: string | undefined): boolean
}

export function outboxAccess(secretToken: string): OutboxAccess {
  const cookie = createHmac('sha256', secretToken).update('flow-chat demo outbox').digest('base64url')
  return {
    cookie,
    isSecretToken: (value) => typeof value === 'string' && sameText(value, secretToken),
    admits: (value) => value !== undefined && sameText(value, cookie),
  }
}

/** Compares digests, so neither length nor content leaks through timing. */
function sameText(a: string, b: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest()
  return timingSafeEqual(digest(a), digest(b))
}
