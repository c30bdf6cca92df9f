import { randomBytes } from 'node:crypto'
import { link, open, readFile, rename, unlink } from 'node:fs/promises'
import { createConnection, createServer, type Server } from 'node:net'
import { hostname } from 'node:os'

/**
 * An embedded database directory may be opened by one process at a time: two PGlite instances
 * writing the same files corrupt them. The lock is a `<dir>.lock` file naming its holder.
 *
 * Telling a live holder from a dead one by process id fails in containers: a service restarted
 * as process 1 finds the lock of its previous life, also process 1, and pids mean nothing across
 * PID namespaces sharing a volume. So the holder also listens on a Unix socket beside the lock:
 * the kernel accepts a connection only while the holding process lives, in any process layout,
 * and refuses it the moment that process is gone, however it died. Where no socket can be made
 * (a path too long for one, a file system without them), the lock falls back to the process id,
 * minus the one case that id cannot mean: our own id when this process does not hold the lock.
 */

interface LockOwner {
  pid: number
  socket?: string
  /** The kernel's boot id (Linux): equal boot ids mean one kernel, where sockets and pids can be checked. */
  bootId?: string
  host: string
}

/** Unix socket paths are limited to 108 bytes on Linux (104 on macOS). */
const MAX_SOCKET_PATH_BYTES = 100
const CONNECT_TIMEOUT_MS = 2_000
const ATTEMPTS = 5

/** Locks this process holds, so a second open in the same process is refused, not mistaken for stale. */
const heldHere = new Set<string>()

export async function lockDirectory(dir: string): Promise<() => Promise<void>> {
  const path = `${dir}.lock`
  if (heldHere.has(path)) throw new Error(`The database in ${dir} is already open in this process.`)
  const nonce = randomBytes(6).toString('hex')
  const listener = await listenOn(`${dir}.lock-${nonce}.sock`)
  const me: LockOwner = { pid: process.pid, socket: listener?.path, bootId: await bootId(), host: hostname() }
  try {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (await create(path, JSON.stringify(me))) {
        heldHere.add(path)
        return async () => {
          heldHere.delete(path)
          await unlink(path).catch(() => undefined)
          await new Promise<void>((resolve) => (listener ? listener.server.close(() => resolve()) : resolve()))
        }
      }
      const content = await readFile(path, 'utf8').catch(() => undefined)
      if (content === undefined) continue // released meanwhile: try again
      const owner = parseOwner(content)
      const verdict = await judge(owner, me, path)
      if (verdict !== 'stale') throw new Error(inUseMessage(dir, owner, verdict))
      await removeStale(path, content, nonce, owner)
    }
    throw new Error(`Could not lock ${dir}: other processes keep taking the lock`)
  } catch (error) {
    listener?.server.close()
    throw error
  }
}

async function create(path: string, content: string): Promise<boolean> {
  try {
    const handle = await open(path, 'wx', 0o600)
    await handle.writeFile(content)
    await handle.close()
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
}

type Verdict = 'stale' | 'alive' | 'unverifiable'

async function judge(owner: LockOwner, me: LockOwner, path: string): Promise<Verdict> {
  const sameKernel = owner.bootId !== undefined && me.bootId !== undefined ? owner.bootId === me.bootId : owner.host === me.host
  if (!sameKernel) {
    // Another boot of this machine left it: its holder is gone. Another machine: we cannot tell.
    return owner.host === me.host ? 'stale' : 'unverifiable'
  }
  if (owner.socket) return (await answers(owner.socket)) ? 'alive' : 'stale'
  if (owner.pid === process.pid) return heldHere.has(path) ? 'alive' : 'stale' // an earlier life of our pid
  return isRunning(owner.pid) ? 'alive' : 'stale'
}

/**
 * Moves the stale lock aside before deleting it, and checks that what moved is the lock judged
 * stale: when two processes start at once, the other may already have replaced it with its own.
 */
async function removeStale(path: string, judged: string, nonce: string, owner: LockOwner): Promise<void> {
  const aside = `${path}.stale-${nonce}`
  try {
    await rename(path, aside)
  } catch {
    return // gone already: the next attempt sees what is there now
  }
  const moved = await readFile(aside, 'utf8').catch(() => judged)
  if (moved !== judged) await link(aside, path).catch(() => undefined) // a live lock: put it back
  await unlink(aside).catch(() => undefined)
  if (moved === judged && owner.socket) await unlink(owner.socket).catch(() => undefined)
}

function parseOwner(content: string): LockOwner {
  try {
    const parsed = JSON.parse(content) as Partial<LockOwner>
    if (typeof parsed.pid === 'number') {
      return {
        pid: parsed.pid,
        socket: typeof parsed.socket === 'string' ? parsed.socket : undefined,
        bootId: typeof parsed.bootId === 'string' ? parsed.bootId : undefined,
        host: typeof parsed.host === 'string' ? parsed.host : hostname(),
      }
    }
  } catch {
    // Earlier versions wrote the bare pid.
  }
  return { pid: Number(content.trim()) || 0, host: hostname() }
}

function inUseMessage(dir: string, owner: LockOwner, verdict: Verdict): string {
  const who = `process ${owner.pid}${owner.host === hostname() ? '' : ` on ${owner.host}`}`
  return verdict === 'alive'
    ? `The database in ${dir} is in use by ${who}. Stop it first, or use DATABASE_URL for shared access.`
    : `The database in ${dir} is locked by ${who}, which this machine cannot check. ` +
        `If that process is gone, delete ${dir}.lock; for shared access use DATABASE_URL.`
}

async function listenOn(socketPath: string): Promise<{ server: Server; path: string } | undefined> {
  if (process.platform === 'win32' || Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) return undefined
  const server = createServer((connection) => connection.end())
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(socketPath, resolve)
    })
  } catch {
    return undefined // a file system without sockets: fall back to the process id
  }
  // The lock must not keep the process alive on its own.
  server.unref()
  return { server, path: socketPath }
}

/** True when a process accepts connections on the socket, i.e. the lock's holder still runs. */
function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(socketPath)
    const done = (alive: boolean) => {
      clearTimeout(timer)
      socket.destroy()
      resolve(alive)
    }
    // A holder too busy to accept within the timeout is alive all the same.
    const timer = setTimeout(() => done(true), CONNECT_TIMEOUT_MS)
    socket.once('connect', () => done(true))
    socket.once('error', (error: NodeJS.ErrnoException) => done(!['ECONNREFUSED', 'ENOENT', 'ENOTSOCK'].includes(error.code ?? '')))
  })
}

async function bootId(): Promise<string | undefined> {
  return (await readFile('/proc/sys/kernel/random/boot_id', 'utf8').catch(() => ''))?.trim() || undefined
}

function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
