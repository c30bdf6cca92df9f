import { open, readFile, unlink } from 'node:fs/promises'

/**
 * An embedded database directory may be opened by one process at a time: two PGlite instances
 * writing the same files corrupt them. The lock is a `<dir>.lock` file holding the owner's pid;
 * a lock left by a process that no longer runs is taken over.
 */
export async function lockDirectory(dir: string): Promise<() => Promise<void>> {
  const path = `${dir}.lock`
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, 'wx')
      await handle.writeFile(String(process.pid))
      await handle.close()
      return () => unlink(path).catch(() => undefined)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const owner = Number((await readFile(path, 'utf8').catch(() => '')).trim())
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isRunning(owner)) {
        throw new Error(
          `The database in ${dir} is in use by process ${owner}. ` +
            'Stop it first, or use DATABASE_URL for shared access.',
        )
      }
      if (owner === process.pid) {
        throw new Error(`The database in ${dir} is already open in this process.`)
      }
      await unlink(path).catch(() => undefined) // stale: its owner is gone
    }
  }
  throw new Error(`Could not lock ${dir}`)
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
