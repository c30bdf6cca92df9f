import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { constants } from 'node:fs'
import { access, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { DEFAULT_UPLOAD_LIMIT_BYTES } from '../../protocol/uploads'
import type { Store } from '../store/store'
import { DiskStorage } from './disk-storage'
import type { FileStorage } from './file-storage'
import { type S3Settings, S3Storage } from './s3-storage'
import { DEFAULT_UPLOAD_QUOTAS, diskRoom, type UploadQuotas } from './upload-quotas'

/** The operator's upload settings (UPLOAD_MAX_BYTES, S3_*; docs/operators). */
export interface UploadSettings {
  /** The most bytes any upload may have; a block's own limit counts within it. */
  maxBytes: number
  /** An S3-compatible store; local disk under DATA_DIR/uploads when unset. */
  s3: S3Settings | undefined
  /** What conversations, clients and workspaces may store (UPLOAD_*_BYTES, UPLOAD_UNSENT_SECONDS). */
  quotas: UploadQuotas
}

export const DEFAULT_UPLOAD_SETTINGS: UploadSettings = {
  maxBytes: DEFAULT_UPLOAD_LIMIT_BYTES,
  s3: undefined,
  quotas: DEFAULT_UPLOAD_QUOTAS,
}

/** How long a signed URL to a private file works. */
export const SIGNED_URL_SECONDS = 10 * 60

/**
 * Uploaded files for one process: where their bytes go, where uploads wait while they arrive
 * (`incoming`, always on local disk: a file is checked whole before it is stored), and the key
 * signing short-lived URLs to private files (derived from the credentials key, so every process
 * sharing the database signs alike).
 */
export class Files {
  readonly incoming: string

  constructor(
    readonly storage: FileStorage,
    readonly settings: UploadSettings,
    dataDir: string,
    private readonly signingKey: Buffer,
  ) {
    this.incoming = join(dataDir, 'uploads-incoming')
  }

  async ready(): Promise<void> {
    await mkdir(this.incoming, { recursive: true })
  }

  /**
   * Whether files can be taken now, for readiness: `ok`, or why not in words anyone may read (the
   * figures go to `log`). Every upload arrives on local disk, whatever the storage.
   */
  async check(log: { warn(fields: object, message: string): void }): Promise<string> {
    const reserve = this.settings.quotas.reserveBytes
    try {
      await this.ready()
      await access(this.incoming, constants.W_OK)
      const room = await diskRoom(this.incoming, reserve)
      if (room > 0) return 'ok'
      log.warn(
        { freeBytes: room + reserve, reserveBytes: reserve },
        'readiness: uploads are refused, the disk has no room beyond its reserve',
      )
      return 'refusing files: no room beyond the disk reserve'
    } catch (error) {
      log.warn({ err: error }, 'readiness: the folder uploads arrive in cannot be written')
      return 'refusing files: cannot write'
    }
  }

  /** `?expires=…&signature=…` for a private file, valid SIGNED_URL_SECONDS from `now`. */
  signedQuery(fileId: string, now: Date): { expires: number; signature: string } {
    const expires = Math.floor(now.getTime() / 1000) + SIGNED_URL_SECONDS
    return { expires, signature: this.signature(fileId, expires) }
  }

  /** Whether a signed URL's query is this service's and still valid. */
  verifies(fileId: string, expires: string | undefined, signature: string | undefined, now: Date): boolean {
    if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return false
    if (Number(expires) * 1000 <= now.getTime()) return false
    const expected = Buffer.from(this.signature(fileId, Number(expires)))
    const given = Buffer.from(signature)
    return given.length === expected.length && timingSafeEqual(given, expected)
  }

  private signature(fileId: string, expires: number): string {
    return createHmac('sha256', this.signingKey).update(`file:${fileId}:${expires}`).digest('base64url')
  }

  /** Deletes one result's files (rows and bytes): for the results API's deletion. */
  async deleteResult(store: Store, workspaceId: string, resultId: string): Promise<number> {
    const keys = await store.uploads.takeResult(resultId)
    await this.storage.deleteResult(workspaceId, resultId)
    return keys.length
  }

  /**
   * Deletes the uploads never sent as their question's answer once they are done waiting
   * (`quotas.unsentSeconds` old, or their conversation gone), having first set aside those sent,
   * which live as long as their results. Returns how many were deleted.
   */
  async purgeUnsent(store: Store, now: Date, batch: number): Promise<number> {
    const before = new Date(now.getTime() - this.settings.quotas.unsentSeconds * 1000)
    while ((await store.uploads.markSent(before, batch)) === batch);
    let total = 0
    for (let keys = await store.uploads.takeUnsent(before, batch); keys.length > 0; ) {
      for (const key of keys) await this.storage.delete(key)
      total += keys.length
      keys = keys.length === batch ? await store.uploads.takeUnsent(before, batch) : []
    }
    return total
  }
}

/** The files of a process: S3 when configured, else disk under `dataDir`. */
export function createFiles(settings: UploadSettings, dataDir: string, credentialsKey: Buffer): Files {
  const storage = settings.s3 ? new S3Storage(settings.s3) : new DiskStorage(join(dataDir, 'uploads'))
  const signingKey = createHmac('sha256', credentialsKey).update('uploaded-file-urls').digest()
  return new Files(storage, settings, dataDir, signingKey)
}

/** A file's id: 192 random bits, its URL's secret for a public file. */
export const newFileId = () => randomBytes(24).toString('base64url')
