import { createReadStream } from 'node:fs'
import { copyFile, mkdir, rename, rm, stat, unlink } from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'
import type { Readable } from 'node:stream'
import { type FileStorage, resultPrefix } from './file-storage'

/** Files on local disk, under `root` (DATA_DIR/uploads by default): one file per key. */
export class DiskStorage implements FileStorage {
  private readonly root: string

  constructor(root: string) {
    this.root = resolve(root)
  }

  /** The key's path; keys are the service's own, but a key leaving the root is refused all the same. */
  private pathOf(key: string): string {
    const path = resolve(this.root, key)
    if (!path.startsWith(this.root + sep)) throw new Error(`Storage key outside the storage root: ${key}`)
    return path
  }

  async put(key: string, path: string): Promise<void> {
    const target = this.pathOf(key)
    await mkdir(dirname(target), { recursive: true })
    try {
      await rename(path, target)
    } catch (error) {
      // Another file system (DATA_DIR's incoming folder elsewhere): copy instead.
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error
      await copyFile(path, target)
      await unlink(path)
    }
  }

  async open(key: string): Promise<Readable | undefined> {
    const path = this.pathOf(key)
    try {
      if (!(await stat(path)).isFile()) return undefined
    } catch {
      return undefined
    }
    return createReadStream(path)
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true })
  }

  async deleteResult(workspaceId: string, resultId: string): Promise<void> {
    await rm(join(this.pathOf(resultPrefix(workspaceId, resultId))), { recursive: true, force: true })
  }
}
