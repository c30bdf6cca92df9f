import { newId } from '../ids'
import { log } from '../observability/log'
import { metrics } from '../observability/metrics'
import { addCounts, type HeldCounts, noCounts } from '../store/privacy-repository'
import type { Store } from '../store/store'
import type { Files } from '../uploads/files'
import { eraseResults } from './visitor-data'

/**
 * Deletes what workspaces keep no longer (their `retentionDays`): each result whose conversation
 * began and was last active more than that many days ago, with everything it holds (answers,
 * sessions, AI answers, logs, uploads and their files, webhook deliveries, conversations with a
 * person), and outbox e-mails as old.
 *
 * Every process offers to run it; the one that takes the job's lease in the database runs it, a
 * batch of results at a time (files first, then rows in one transaction), renewing the lease with
 * its progress after each. Another process finds the lease held and skips; if the holder stops,
 * its lease expires and the next run carries its totals on: what is left is found again by age, so
 * the job resumes where it stopped. Progress goes to the log and to metrics; a workspace's run
 * leaves one audit line with its counts.
 */

export const RETENTION_JOB = 'retention'
const DEFAULT_BATCH = 1_000
const DEFAULT_LEASE_MS = 5 * 60_000
const DAY_MS = 86_400_000

export interface RetentionProgress {
  startedAt: string
  finishedAt?: string
  /** The workspace being worked on, while it runs. */
  workspace?: string
  deleted: HeldCounts & { files: number }
}

export interface RetentionOptions {
  store: Store
  files: Files
  /** The clock ages are measured by (tests pin it). */
  now: () => Date
  batch?: number
  leaseMs?: number
}

export class RetentionJob {
  readonly owner = `retention-${newId()}`
  private timer: NodeJS.Timeout | undefined
  private running: Promise<RetentionProgress | undefined> | undefined
  private stopped = false

  constructor(private readonly options: RetentionOptions) {}

  /** Runs the job now unless another process holds it: its totals, or undefined when skipped. */
  runOnce(): Promise<RetentionProgress | undefined> {
    this.running ??= this.run().finally(() => {
      this.running = undefined
    })
    return this.running
  }

  /** Runs every `intervalMs`, the first after a random part of it (so processes spread out). */
  start(intervalMs: number): void {
    const later = (ms: number) => {
      if (this.stopped) return
      this.timer = setTimeout(tick, ms)
      this.timer.unref()
    }
    const tick = () => {
      void this.runOnce()
        .catch((error: unknown) => log().error({ err: error }, 'the retention job failed; it runs again later'))
        .finally(() => later(intervalMs))
    }
    later(Math.random() * intervalMs)
  }

  async stop(): Promise<void> {
    this.stopped = true
    clearTimeout(this.timer)
    await this.running?.catch(() => undefined)
  }

  private async run(): Promise<RetentionProgress | undefined> {
    const { store } = this.options
    const leaseMs = this.options.leaseMs ?? DEFAULT_LEASE_MS
    const last = await store.jobLeases.acquire(RETENTION_JOB, this.owner, leaseMs)
    if (!last) {
      metrics.retentionRuns.inc({ outcome: 'busy' })
      return undefined
    }
    // A run its last holder did not finish is carried on, with its totals.
    const resumed = typeof last.startedAt === 'string' && last.finishedAt === undefined
    const progress: RetentionProgress = resumed
      ? (last as unknown as RetentionProgress)
      : { startedAt: this.options.now().toISOString(), deleted: { ...noCounts(), files: 0 } }
    if (resumed) log().info({ job: RETENTION_JOB, progress }, 'the retention job carries on a run that stopped')
    try {
      for (const workspace of await store.privacy.retainingWorkspaces()) {
        const before = new Date(this.options.now().getTime() - workspace.retentionDays * DAY_MS)
        const held = await this.runWorkspace(workspace.id, before, progress, leaseMs)
        if (held === undefined) {
          metrics.retentionRuns.inc({ outcome: 'lost' })
          log().warn({ job: RETENTION_JOB }, 'the retention job lost its lease to another process and stops')
          return undefined
        }
      }
      progress.finishedAt = this.options.now().toISOString()
      delete progress.workspace
      await store.jobLeases.release(RETENTION_JOB, this.owner, progress as unknown as Record<string, unknown>)
      metrics.retentionRuns.inc({ outcome: 'done' })
      log().info({ job: RETENTION_JOB, deleted: progress.deleted }, 'the retention job ran')
      return progress
    } catch (error) {
      metrics.retentionRuns.inc({ outcome: 'failed' })
      // Free the lease at once: the next run (on any process) carries on from what is left.
      await store.jobLeases.release(RETENTION_JOB, this.owner, progress as unknown as Record<string, unknown>).catch(() => undefined)
      throw error
    }
  }

  /** Deletes the workspace's data older than `before`, a batch at a time; undefined once the lease is lost. */
  private async runWorkspace(workspaceId: string, before: Date, progress: RetentionProgress, leaseMs: number): Promise<true | undefined> {
    const { store, files } = this.options
    const batch = this.options.batch ?? DEFAULT_BATCH
    const counts = { ...noCounts(), files: 0 }
    progress.workspace = workspaceId
    const renew = () => store.jobLeases.renew(RETENTION_JOB, this.owner, leaseMs, progress as unknown as Record<string, unknown>)
    for (;;) {
      const ids = await store.privacy.expiredResults(workspaceId, before, batch)
      if (ids.length === 0) break
      const keys = await store.privacy.uploadKeys(ids)
      const gone = await eraseResults(store, files, ids)
      const batchCounts = { ...gone, files: keys.length }
      addCounts(counts, gone)
      counts.files += keys.length
      addCounts(progress.deleted, gone)
      progress.deleted.files += keys.length
      metrics.retentionDeleted.inc({ kind: 'results' }, gone.results)
      metrics.retentionDeleted.inc({ kind: 'files' }, keys.length)
      log().debug({ job: RETENTION_JOB, workspace: workspaceId, deleted: batchCounts }, 'the retention job deleted a batch')
      if (!(await renew())) return undefined
    }
    for (let n = batch; n === batch; ) {
      n = await store.privacy.deleteOldEmails(workspaceId, before, batch)
      counts.outboxEmails += n
      progress.deleted.outboxEmails += n
      metrics.retentionDeleted.inc({ kind: 'outboxEmails' }, n)
    }
    if (!(await renew())) return undefined
    if (counts.results > 0 || counts.outboxEmails > 0) {
      await store.privacy.audit(workspaceId, {
        id: newId(),
        action: 'retention',
        selector: null,
        tokenId: null,
        actor: 'retention job',
        counts,
        createdAt: this.options.now().toISOString(),
      })
      log().info(
        { job: RETENTION_JOB, workspace: workspaceId, before: before.toISOString(), deleted: counts },
        'the retention job deleted old data',
      )
    }
    return true
  }
}
