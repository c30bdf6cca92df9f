import type { Readable } from 'node:stream'

/**
 * Where uploaded files' bytes live: local disk under DATA_DIR (disk-storage.ts) or an
 * S3-compatible store (s3-storage.ts). Keys are `{workspaceId}/{resultId}/{fileId}`, made by the
 * service only (never from a visitor's file name), so one result's files share a prefix and go
 * together when it is deleted.
 */
export interface FileStorage {
  /** Stores the finished file at `path` (a temporary file the caller removes) under `key`. */
  put(key: string, path: string, meta: { size: number; type: string }): Promise<void>
  /** The file's bytes, or undefined when it is gone. */
  open(key: string): Promise<Readable | undefined>
  /** Removes one file; a missing one is fine. */
  delete(key: string): Promise<void>
  /** Removes every file of one result (deleting a result's data). */
  deleteResult(workspaceId: string, resultId: string): Promise<void>
}

export const storageKey = (ids: { workspaceId: string; resultId: string; fileId: string }) =>
  `${ids.workspaceId}/${ids.resultId}/${ids.fileId}`

export const resultPrefix = (workspaceId: string, resultId: string) => `${workspaceId}/${resultId}/`
