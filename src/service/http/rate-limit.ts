import type { Context } from 'hono'
import type { RateLimitConfig } from '../config'
import type { BucketVerdict, RateLimitsRepository } from '../store/rate-limits-repository'
import { clientKey } from './client-address'
import { HttpError } from './errors'

/**
 * A rate limit by key (a client, a token), kept in the database so that every process of the
 * service, and every instance on the same PostgreSQL, counts against the same buckets. Time
 * comes from the injected clock, so behaviour is the same in tests and production.
 *
 * A key refused here is refused again from memory until its next token is due: no token comes
 * back sooner, whatever other processes do, so a client hammering past its limit costs a map
 * lookup, not a database write per request.
 */
export class RateLimiter {
  /** Refused keys and when their next token is due (ms), at most MAX_REMEMBERED. */
  private readonly refusedUntil = new Map<string, number>()

  constructor(
    readonly config: RateLimitConfig,
    private readonly now: () => Date,
    private readonly buckets: RateLimitsRepository,
  ) {}

  get enabled(): boolean {
    return this.config.perMinute > 0
  }

  /** Takes one token for `key`; throws 429 with `Retry-After` when none is left. */
  async consume(key: string): Promise<void> {
    if (!this.enabled) return
    const now = this.now()
    const remembered = this.remembered(key, now)
    if (remembered) throw remembered
    const verdict = await this.buckets.consume(key, this.config, now)
    const refusal = rateLimited(verdict)
    if (refusal) {
      this.remember(key, now, verdict.retryAfterSeconds)
      throw refusal
    }
  }

  /** The 429 `key` would get now, without taking a token (undefined: allowed). */
  async refusal(key: string): Promise<HttpError | undefined> {
    if (!this.enabled) return undefined
    const now = this.now()
    return this.remembered(key, now) ?? rateLimited(await this.buckets.peek(key, this.config, now))
  }

  /**
   * The refusal `key` got a moment ago and still has, from memory only: lets a route refuse a
   * client past its limit before any statement (the token is otherwise taken within one).
   */
  refusedNow(key: string): HttpError | undefined {
    return this.enabled ? this.remembered(key, this.now()) : undefined
  }

  /** Remembers a refusal `key` got within a statement (`cte`), and returns it. */
  note<E extends HttpError | undefined>(key: string, refusal: E): E {
    const retryAfter = Number(refusal?.headers['Retry-After'])
    if (refusal && retryAfter > 0) this.remember(key, this.now(), retryAfter)
    return refusal
  }

  private remembered(key: string, now: Date): HttpError | undefined {
    const until = this.refusedUntil.get(key)
    if (until === undefined) return undefined
    if (until <= now.getTime()) {
      this.refusedUntil.delete(key)
      return undefined
    }
    return rateLimited({ allowed: false, retryAfterSeconds: Math.ceil((until - now.getTime()) / 1000) })
  }

  private remember(key: string, now: Date, retryAfterSeconds: number): void {
    if (this.refusedUntil.size >= MAX_REMEMBERED) {
      for (const [known, until] of this.refusedUntil) if (until <= now.getTime()) this.refusedUntil.delete(known)
      // Still full: this one goes to the database each time, as every key did before.
      if (this.refusedUntil.size >= MAX_REMEMBERED) return
    }
    this.refusedUntil.set(key, now.getTime() + retryAfterSeconds * 1000)
  }

  /** The bucket update for `key` as a CTE, to run within a request's first statement. */
  cte(name: string, params: unknown[], key: string): string | undefined {
    return this.enabled ? this.buckets.bucketCte(name, params, key, this.config, this.now()) : undefined
  }
}

const MAX_REMEMBERED = 10_000

/** The 429 a refused verdict means, or undefined when allowed. */
export function rateLimited(verdict: BucketVerdict): HttpError | undefined {
  if (verdict.allowed) return undefined
  const retryAfter = verdict.retryAfterSeconds
  return new HttpError('rate_limited', `Too many requests. Try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`, undefined, {
    'Retry-After': String(retryAfter),
  })
}

/**
 * The key of a visitor's chat bucket: every request a page's visitor makes without a token (chat
 * steps, uploads, QR codes) draws from the same one, by network (an IPv6 client's /64, clientKey).
 */
export const chatRateKey = (c: Context, trustProxyHops: number): string => `chat:${clientKey(c, trustProxyHops)}`
