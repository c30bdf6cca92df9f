import type { ServiceConfig } from '../config'
import { log } from '../observability/log'
import type { Store } from '../store/store'
import type { Files } from '../uploads/files'

/**
 * Expired sessions are deleted after a grace period: their state and idempotent responses go,
 * their answers and results (what the flow's owner collected) stay. During the grace period an
 * expired session still answers 410 `session_expired`; after it, 404 `session_not_found`. Rate
 * limit buckets unused long enough to be full again are forgotten too. Every process runs the
 * purge; batches skip rows another process is deleting, so they never wait on each other.
 */
export interface PurgeSettings {
  /** How long after its expiry a session is kept. */
  graceMs: number
  /** Rate-limit buckets unused this long are full again and can be forgotten. */
  idleBucketMs: number
  /** Rows deleted per statement, so one purge never holds many rows at once. */
  batch: number
}

export const SESSION_PURGE_GRACE_MS = 24 * 60 * 60 * 1000
export const PURGE_INTERVAL_MS = 10 * 60 * 1000

/** A bucket refills completely in burst / perMinute minutes; after an hour at least it is forgotten. */
export function purgeSettingsFor(config: Pick<ServiceConfig, 'rateLimits'>): PurgeSettings {
  const refillMs = Object.values(config.rateLimits).map((bucket) => (bucket.perMinute > 0 ? (bucket.burst / bucket.perMinute) * 60_000 : 0))
  return { graceMs: SESSION_PURGE_GRACE_MS, idleBucketMs: Math.max(60 * 60 * 1000, ...refillMs), batch: 5_000 }
}

/**
 * `files`: uploads never sent as their question's answer go too, once they are done waiting
 * (uploads/files.ts); files sent live as long as their results.
 */
export async function purgeExpired(
  store: Store,
  now: Date,
  settings: PurgeSettings,
  files?: Files,
): Promise<{ sessions: number; buckets: number; files: number }> {
  const totals = { sessions: 0, buckets: 0, files: 0 }
  const sessionsBefore = new Date(now.getTime() - settings.graceMs)
  for (let n = settings.batch; n === settings.batch; totals.sessions += n) {
    n = await store.sessions.purgeExpired(sessionsBefore, settings.batch)
  }
  const bucketsBefore = new Date(now.getTime() - settings.idleBucketMs)
  for (let n = settings.batch; n === settings.batch; totals.buckets += n) {
    n = await store.rateLimits.purgeIdle(bucketsBefore, settings.batch)
  }
  if (files) totals.files = await files.purgeUnsent(store, now, settings.batch)
  return totals
}

/** Runs the purge every `intervalMs` (first after a random part of it, so processes spread out). */
export function schedulePurge(
  store: Store,
  now: () => Date,
  settings: PurgeSettings,
  intervalMs = PURGE_INTERVAL_MS,
  files?: Files,
): () => void {
  let timer: NodeJS.Timeout
  let stopped = false
  const later = (ms: number) => {
    if (stopped) return
    timer = setTimeout(run, ms)
    timer.unref()
  }
  const run = () => {
    purgeExpired(store, now(), settings, files)
      .catch((error: unknown) => log().error({ err: error }, 'purging expired sessions failed'))
      .finally(() => later(intervalMs))
  }
  later(Math.random() * intervalMs)
  return () => {
    stopped = true
    clearTimeout(timer)
  }
}
