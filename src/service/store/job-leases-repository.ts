import type { Queryable } from './database'
import type { Tables } from './tables'

/**
 * Jobs one process of many runs at a time, each named once (job_leases). A process takes a job's
 * lease when it is free or expired, renews it between batches (writing how far it got), and
 * releases it when done. A process that stops mid-job leaves its lease to expire: the next holder
 * reads the progress it wrote and carries on. Expiry is the database's clock, the same for all.
 */
export class JobLeasesRepository {
  constructor(
    private readonly db: Queryable,
    private readonly t: Tables,
  ) {}

  /** Takes the job's lease for `leaseMs`: the progress its last holder wrote, or undefined when another process holds it. */
  async acquire(name: string, owner: string, leaseMs: number): Promise<Record<string, unknown> | undefined> {
    const rows = await this.db.query<{ progress: Record<string, unknown> }>(
      `INSERT INTO ${this.t.jobLeases} AS j (name, owner, expires_at, updated_at)
       VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3::float8), clock_timestamp())
       ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at, updated_at = EXCLUDED.updated_at
       WHERE j.owner IS NULL OR j.owner = EXCLUDED.owner OR j.expires_at <= clock_timestamp()
       RETURNING j.progress`,
      [name, owner, leaseMs / 1000],
    )
    return rows[0]?.progress
  }

  /** Extends a lease this owner still holds and records its progress; false when it was lost. */
  async renew(name: string, owner: string, leaseMs: number, progress: Record<string, unknown>): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE ${this.t.jobLeases} SET expires_at = clock_timestamp() + make_interval(secs => $3::float8),
         progress = $4::jsonb, updated_at = clock_timestamp()
       WHERE name = $1 AND owner = $2 RETURNING 1`,
      [name, owner, leaseMs / 1000, JSON.stringify(progress)],
    )
    return rows.length > 0
  }

  /** Gives the lease up with the job's final progress (when this owner still holds it). */
  async release(name: string, owner: string, progress: Record<string, unknown>): Promise<void> {
    await this.db.query(
      `UPDATE ${this.t.jobLeases} SET owner = NULL, expires_at = NULL, progress = $3::jsonb, updated_at = clock_timestamp()
       WHERE name = $1 AND owner = $2`,
      [name, owner, JSON.stringify(progress)],
    )
  }

  /** What the job's last holder wrote (nothing before its first run). */
  async progress(name: string): Promise<Record<string, unknown> | undefined> {
    const rows = await this.db.query<{ progress: Record<string, unknown> }>(`SELECT progress FROM ${this.t.jobLeases} WHERE name = $1`, [
      name,
    ])
    return rows[0]?.progress
  }
}
