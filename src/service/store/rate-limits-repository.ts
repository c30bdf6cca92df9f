import type { Queryable } from './database'
import { StatementTexts } from './statement-texts'
import type { Tables } from './tables'

/** A token bucket: `burst` requests at once, refilled at `perMinute` (0: no limit). */
export interface BucketConfig {
  perMinute: number
  burst: number
}

export interface BucketVerdict {
  allowed: boolean
  /** Seconds until a token is back (when refused). */
  retryAfterSeconds: number
}

/**
 * Token buckets in a table, so every process of the service draws from the same bucket. One
 * statement refills by the time since the bucket's last use, then takes a token if there is one;
 * concurrent requests for one key serialise on its row for that statement only.
 */
export class RateLimitsRepository {
  private readonly texts = new StatementTexts()

  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
  ) {}

  async consume(key: string, bucket: BucketConfig, now: Date): Promise<BucketVerdict> {
    const params: unknown[] = []
    const cte = this.bucketCte('rl', params, key, bucket, now)
    const rows = await this.db.query<VerdictRow>(
      this.texts.text('consume', () => `WITH ${cte} SELECT allowed, tokens FROM rl`),
      params,
    )
    return verdictOf(rows[0], bucket)
  }

  /** The verdict a request would get now, taking nothing (an unknown key has a full bucket). */
  async peek(key: string, bucket: BucketConfig, now: Date): Promise<BucketVerdict> {
    const rows = await this.db.query<VerdictRow>(
      `SELECT tokens >= 1 AS allowed, tokens FROM (
         SELECT LEAST($2::float8, tokens + GREATEST(0, EXTRACT(EPOCH FROM ($4::timestamptz - updated_at))) * $3::float8) AS tokens
         FROM ${this.t.rateLimits} WHERE key = $1) AS b`,
      [key, bucket.burst, bucket.perMinute / 60, now.toISOString()],
    )
    return verdictOf(rows[0], bucket)
  }

  /**
   * The bucket update as a named CTE (`name AS (…) RETURNING allowed, tokens`), appending its
   * parameters to `params`: lets a request take its token in the same round trip as its first read.
   */
  bucketCte(name: string, params: unknown[], key: string, bucket: BucketConfig, now: Date): string {
    const first = params.length + 1
    params.push(key, bucket.burst, bucket.perMinute / 60, now.toISOString())
    return this.texts.text(`${name} ${first}`, () => this.bucketCteText(name, first))
  }

  private bucketCteText(name: string, first: number): string {
    const [k, burst, perSecond, at] = [0, 1, 2, 3].map((offset) => `$${first + offset}`)
    const refilled = `LEAST(${burst}::float8, b.tokens + GREATEST(0, EXTRACT(EPOCH FROM (${at}::timestamptz - b.updated_at))) * ${perSecond}::float8)`
    return `${name} AS (
      INSERT INTO ${this.t.rateLimits} AS b (key, tokens, allowed, updated_at)
      VALUES (${k}, ${burst}::float8 - 1, true, ${at}::timestamptz)
      ON CONFLICT (key) DO UPDATE SET
        tokens = CASE WHEN ${refilled} >= 1 THEN ${refilled} - 1 ELSE ${refilled} END,
        allowed = ${refilled} >= 1,
        updated_at = GREATEST(b.updated_at, ${at}::timestamptz)
      RETURNING allowed, tokens
    )`
  }

  /** Forgets buckets unused since `before` (they are full again, so forgetting changes nothing). */
  async purgeIdle(before: Date, limit: number): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      `WITH gone AS (
         DELETE FROM ${this.t.rateLimits} WHERE key IN (
           SELECT key FROM ${this.t.rateLimits} WHERE updated_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [before.toISOString(), limit],
    )
    return rows[0]?.n ?? 0
  }
}

export interface VerdictRow {
  allowed: boolean
  tokens: number
}

export function verdictOf(row: VerdictRow | undefined, bucket: BucketConfig): BucketVerdict {
  if (!row || row.allowed) return { allowed: true, retryAfterSeconds: 0 }
  const perSecond = bucket.perMinute / 60
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - Number(row.tokens)) / perSecond)) }
}
