import type { RateLimitConfig } from '../config'
import type { BucketVerdict, RateLimitsRepository } from '../store/rate-limits-repository'
import type { Context } from 'hono'
import { clientKey } from './client-address'
import { HttpError } from './errors'

/**
 * A rate limit by key (a client address, a token), kept in the database so that every process
 * of the service, and every instance on the same PostgreSQL, counts against the same buckets.
 * Time comes from the injected clock, so behaviour is the same in tests and production.
 */
export class RateLimiter {
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
    const refusal = rateLimited(await this.buckets.consume(key, this.config, this.now()))
    if (refusal) throw refusal
  }

  /** The 429 `key` would get now, without taking a token (undefined: allowed). */
  async refusal(key: string): Promise<HttpError | undefined> {
    if (!this.enabled) return undefined
    return rateLimited(await this.buckets.peek(key, this.config, this.now()))
  }

  /** The bucket update for `key` as a CTE, to run within a request's first statement. */
  cte(name: string, params: unknown[], key: string): string | undefined {
    return this.enabled ? this.buckets.bucketCte(name, params, key, this.config, this.now()) : undefined
  }
}

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
