import type { PublishedFlow } from '../../protocol/index'
import { deepFreeze } from '../engine/core/deep-freeze'
import { allowedOriginsOf } from '../http/cors'
import type { PublishedFlowsRepository, PublishedVersion } from '../store/published-flows-repository'

/**
 * A published version never changes once written, so each is read and parsed once per process
 * and shared by every request and session on it (a 1.4 MB flow costs ~100 ms to fetch and parse).
 * The cache is bounded by entries and by the size of the stored snapshots, least recently used
 * first out. Snapshots are frozen: one request cannot change what the next one runs.
 */
export interface CachedVersion extends PublishedVersion {
  /** `settings.security.allowedOrigins`, read once. */
  allowedOrigins: string[]
  /** Size of the stored snapshot (what the cache counts). */
  bytes: number
}

export interface VersionCacheLimits {
  maxEntries: number
  maxBytes: number
}

export const DEFAULT_VERSION_CACHE_LIMITS: VersionCacheLimits = { maxEntries: 1_000, maxBytes: 128 * 1024 * 1024 }

export class PublishedVersions {
  private readonly entries = new Map<string, CachedVersion>()
  private readonly loading = new Map<string, Promise<CachedVersion | undefined>>()
  private bytes = 0

  constructor(
    private readonly repository: Pick<PublishedFlowsRepository, 'findVersionText'>,
    private readonly limits: VersionCacheLimits = DEFAULT_VERSION_CACHE_LIMITS,
  ) {}

  /** The version, parsed; concurrent first reads of one version share one query. */
  async get(versionId: string): Promise<CachedVersion | undefined> {
    const cached = this.entries.get(versionId)
    if (cached) {
      // Most recently used last.
      this.entries.delete(versionId)
      this.entries.set(versionId, cached)
      return cached
    }
    let pending = this.loading.get(versionId)
    if (!pending) {
      pending = this.load(versionId).finally(() => this.loading.delete(versionId))
      this.loading.set(versionId, pending)
    }
    return pending
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes }
  }

  private async load(versionId: string): Promise<CachedVersion | undefined> {
    const row = await this.repository.findVersionText(versionId)
    if (!row) return undefined
    const { snapshotText, ...header } = row
    const snapshot = deepFreeze(JSON.parse(snapshotText) as PublishedFlow)
    const version: CachedVersion = {
      ...header,
      snapshot,
      allowedOrigins: allowedOriginsOf(snapshot.settings),
      bytes: Buffer.byteLength(snapshotText),
    }
    this.entries.set(versionId, version)
    this.bytes += version.bytes
    this.evict()
    return version
  }

  private evict(): void {
    for (const [id, version] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.bytes <= this.limits.maxBytes) return
      if (this.entries.size === 1) return // the one just read is used right away, whatever its size
      this.entries.delete(id)
      this.bytes -= version.bytes
    }
  }
}
