import { spawn, spawnSync } from 'node:child_process'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { lockDirectory } from '../../../src/service/store/directory-lock'

const HOLDER = join(import.meta.dirname, 'fixtures/hold-lock.ts')

let base: string
let dir: string
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'flow-lock-'))
  dir = join(base, 'pglite')
})
afterEach(() => rm(base, { recursive: true, force: true }))

/** Runs the lock holder fixture (optionally through a wrapper such as `unshare`) until it says what it did. */
function holder(mode: 'hold' | 'crash', wrapper: string[] = []) {
  // node itself holds the lock (no wrapper process in between), so inside `unshare` it is process 1.
  const [command, ...args] = [...wrapper, process.execPath, '--import', 'tsx', HOLDER, dir, mode]
  const child = spawn(command!, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  const said = new Promise<string>((resolve) => {
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes('\n')) resolve(out.trim())
    })
    child.on('exit', () => resolve(out.trim()))
  })
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  return { child, said, exited }
}

describe('lockDirectory', () => {
  it('holds the directory until released', async () => {
    const release = await lockDirectory(dir)
    expect(JSON.parse(await readFile(`${dir}.lock`, 'utf8'))).toMatchObject({ pid: process.pid })
    await expect(lockDirectory(dir)).rejects.toThrow(/already open in this process/)
    await release()
    await expect(stat(`${dir}.lock`)).rejects.toThrow()
    await (await lockDirectory(dir))()
  })

  it('refuses a directory another running process holds, and takes it the moment that process dies', async () => {
    const running = holder('hold')
    expect(await running.said).toMatch(/^locked/)
    await expect(lockDirectory(dir)).rejects.toThrow(new RegExp(`in use by process ${running.child.pid}`))
    running.child.kill('SIGKILL')
    await running.exited
    const release = await lockDirectory(dir)
    expect(JSON.parse(await readFile(`${dir}.lock`, 'utf8'))).toMatchObject({ pid: process.pid })
    await release()
  })

  it('takes over a lock left by an earlier process with its own process id (process 1 in a container)', async () => {
    // What a crashed earlier life of this very process id leaves: its lock, and a dead socket.
    const owner = { pid: process.pid, socket: `${dir}.lock-dead.sock`, host: hostname() }
    await writeFile(`${dir}.lock`, JSON.stringify(owner))
    await (await lockDirectory(dir))()
    // The same left by an earlier version of the service, which wrote the bare pid.
    await writeFile(`${dir}.lock`, String(process.pid))
    await (await lockDirectory(dir))()
  })

  it('refuses, saying what to do, a lock held on another machine it cannot check', async () => {
    await writeFile(`${dir}.lock`, JSON.stringify({ pid: 4242, socket: `${dir}.lock-x.sock`, host: 'elsewhere', bootId: 'another-kernel' }))
    await expect(lockDirectory(dir)).rejects.toThrow(/locked by process 4242 on elsewhere, which this machine cannot check/)
  })

  it('restarts as process 1 of a fresh PID namespace after a crash as process 1', async () => {
    const unshare = ['unshare', '--pid', '--fork', '--mount-proc']
    if (spawnSync(unshare[0]!, [...unshare.slice(1), 'true']).status !== 0) return // needs root and unshare(1)
    const crashed = holder('crash', unshare)
    expect(await crashed.said).toBe('locked 1')
    await crashed.exited
    const restarted = holder('crash', unshare)
    expect(await restarted.said).toBe('locked 1')
  })

  it('refuses a legacy lock of another running process, and takes over one whose process has exited', async () => {
    await writeFile(`${dir}.lock`, String(process.ppid))
    await expect(lockDirectory(dir)).rejects.toThrow(new RegExp(`in use by process ${process.ppid}`))
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString()
    await writeFile(`${dir}.lock`, gone)
    await (await lockDirectory(dir))()
  })
})
