import type { RateLimitConfig } from '../config'
import { HttpError } from './errors'

interface Bucket {
  tokens: number
  updatedMs: number
}

/** Idle buckets are forgotten once there are this many, so memory stays bounded. */
const MAX_TRACKED_KEYS = 50_000

/**
 * A token bucket per key: `burst` requests at once, refilled at `perMinute`. Time comes from the
 * injected clock so behaviour is the same in tests and production.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>()

  constructor(
    private readonly config: RateLimitConfig,
    private readonly now: () => Date,
  ) {}

  /** Takes one token for `key`; throws 429 with `Retry-After` when none is left. */
  consume(key: string): void {
    if (this.config.perMinute === 0) return
    const nowMs = this.now().getTime()
    const refillPerMs = this.config.perMinute / 60_000
    const bucket = this.buckets.get(key) ?? { tokens: this.config.burst, updatedMs: nowMs }
    const elapsed = Math.max(0, nowMs - bucket.updatedMs)
    bucket.tokens = Math.min(this.config.burst, bucket.tokens + elapsed * refillPerMs)
    bucket.updatedMs = nowMs

    if (bucket.tokens < 1) {
      this.buckets.set(key, bucket)
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerMs / 1000))
      throw new HttpError(
        'rate_limited',
        `Too many requests. Try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`,
        undefined,
        { 'Retry-After': String(retryAfter) },
      )
    }
    bucket.tokens -= 1
    if (!this.buckets.has(key) && this.buckets.size >= MAX_TRACKED_KEYS) this.evictIdle(nowMs)
    this.buckets.set(key, bucket)
  }

  /** Drops buckets that have refilled completely: forgetting them changes nothing. */
  private evictIdle(nowMs: number): void {
    const refillPerMs = this.config.perMinute / 60_000
    for (const [key, bucket] of this.buckets) {
      if (bucket.tokens + (nowMs - bucket.updatedMs) * refillPerMs >= this.config.burst) {
        this.buckets.delete(key)
      }
    }
    // Under a flood of distinct keys nothing is idle: drop the oldest entries instead.
    if (this.buckets.size >= MAX_TRACKED_KEYS) {
      const excess = this.buckets.size - MAX_TRACKED_KEYS / 2
      let dropped = 0
      for (const key of this.buckets.keys()) {
        if (dropped++ >= excess) break
        this.buckets.delete(key)
      }
    }
  }
}
