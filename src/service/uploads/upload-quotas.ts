import { statfs } from 'node:fs/promises'
import { HttpError } from '../http/errors'
import type { Store } from '../store/store'
import type { UploadRecord, UploadUsage } from '../store/uploads-repository'

/**
 * How much visitors may store, beyond each file's own limit. A file question takes files before
 * its answer is sent, so files can be uploaded and never sent: what a conversation stores in all,
 * what a client (its network) and a workspace have uploaded and not sent, and the disk's room are
 * each bounded. An upload is refused before its bytes are read when the room it would need is not
 * there, cut off when it outgrows the room left, and counted again, under a lock, when it is
 * recorded; unsent uploads go after `unsentSeconds` (uploads/files.ts, purgeUnsent).
 */
export interface UploadQuotas {
  /** What one conversation may store, its files sent or not (UPLOAD_SESSION_QUOTA_BYTES). */
  sessionBytes: number
  /** What one client may have uploaded and not sent, across workspaces (UPLOAD_CLIENT_UNSENT_BYTES). */
  clientUnsentBytes: number
  /** What one workspace's visitors may have uploaded and not sent (UPLOAD_WORKSPACE_UNSENT_BYTES). */
  workspaceUnsentBytes: number
  /** How long an upload waits to be sent before it goes (UPLOAD_UNSENT_SECONDS). */
  unsentSeconds: number
  /** Room on the disk of DATA_DIR that uploads never take (UPLOAD_DISK_RESERVE_BYTES): the database's. */
  reserveBytes: number
}

export const DEFAULT_UPLOAD_QUOTAS: UploadQuotas = {
  sessionBytes: 100 * 1024 * 1024,
  clientUnsentBytes: 256 * 1024 * 1024,
  workspaceUnsentBytes: 1024 * 1024 * 1024,
  unsentSeconds: 3_600,
  reserveBytes: 512 * 1024 * 1024,
}

/** Who an upload counts against. */
export interface QuotaScope {
  sessionId: string
  workspaceId: string
  clientKey: string
  now: Date
}

/** The most bytes the next upload may have, and the refusal it gets past them. */
export interface Allowance {
  bytes: number
  refusal: () => HttpError
}

/** Free bytes on the disk holding `dir` (where uploads arrive), beyond the reserve. */
export async function diskRoom(dir: string, reserveBytes: number): Promise<number> {
  const stats = await statfs(dir)
  return stats.bavail * stats.bsize - reserveBytes
}

/** How much the next upload of `scope` may store now: the least any quota and the disk leave. */
export async function uploadAllowance(store: Store, incoming: string, quotas: UploadQuotas, scope: QuotaScope): Promise<Allowance> {
  const [usage, room] = await Promise.all([
    store.uploads.usage({ ...scope, since: unsentSince(quotas, scope.now) }),
    diskRoom(incoming, quotas.reserveBytes),
  ])
  const limits = quotaLimits(usage, quotas, scope.now)
  limits.push({ bytes: room, refusal: noRoom })
  return limits.reduce((least, limit) => (limit.bytes < least.bytes ? limit : least))
}

/**
 * Records an upload if every quota still holds with it, counted under the workspace's and the
 * client's lock (so uploads finishing together on any process are counted one after the other).
 * Returns the refusal otherwise, or `'full'` when its question already has its most files.
 */
export async function recordWithinQuotas(
  store: Store,
  record: UploadRecord,
  quotas: UploadQuotas,
  maxPerInput: number,
  now: Date,
): Promise<HttpError | 'full' | undefined> {
  return store.transaction(async (tx) => {
    await tx.uploads.lockQuotas(record.workspaceId, record.clientKey)
    const usage = await tx.uploads.usage({ ...record, since: unsentSince(quotas, now) })
    const over = quotaLimits(usage, quotas, now).find((limit) => limit.bytes < record.size)
    if (over) return over.refusal()
    return (await tx.uploads.insert(record, maxPerInput)) ? undefined : 'full'
  })
}

const unsentSince = (quotas: UploadQuotas, now: Date) => new Date(now.getTime() - quotas.unsentSeconds * 1000)

function quotaLimits(usage: UploadUsage, quotas: UploadQuotas, now: Date): Allowance[] {
  const whenOldestGoes = (oldest: string | null) =>
    oldest === null ? 1 : Math.max(1, Math.ceil((Date.parse(oldest) + quotas.unsentSeconds * 1000 - now.getTime()) / 1000))
  return [
    {
      bytes: quotas.sessionBytes - usage.sessionBytes,
      refusal: () =>
        new HttpError('payload_too_large', `This conversation already stored the most its files may take (${quotas.sessionBytes} bytes).`, {
          quotaBytes: quotas.sessionBytes,
          usedBytes: usage.sessionBytes,
        }),
    },
    {
      bytes: quotas.clientUnsentBytes - usage.clientUnsentBytes,
      refusal: () =>
        waitFor(whenOldestGoes(usage.clientOldest), 'Too many files uploaded from your network are waiting to be sent with an answer.'),
    },
    {
      bytes: quotas.workspaceUnsentBytes - usage.workspaceUnsentBytes,
      refusal: () =>
        waitFor(
          whenOldestGoes(usage.workspaceOldest),
          "Too many files uploaded to this chat's owner are waiting to be sent with an answer.",
        ),
    },
  ]
}

const waitFor = (seconds: number, why: string) =>
  new HttpError('rate_limited', `${why} Try again in ${seconds} seconds.`, undefined, { 'Retry-After': String(seconds) })

/** The disk keeps its reserve: room comes back as unsent uploads go (every ten minutes). */
const noRoom = () => waitFor(600, 'The chat service has no room for more files now.')
