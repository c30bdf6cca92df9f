import { type ChildProcess, spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The service's entry point, as `npm run serve` runs it (through tsx here). */
export const MAIN = join(import.meta.dirname, '../../../src/service/main.ts')

/** A loopback port nothing listens on at the moment. */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

export interface ServiceProcess {
  url: string
  /** Its process id (with WORKERS, the primary's: the workers are its children). */
  pid: number
  /** What it wrote to its standard output so far. */
  stdout(): string
  /** Stops it (SIGTERM) and resolves with everything it wrote. */
  stop(): Promise<{ stdout: string; stderr: string }>
}

/**
 * Starts the service in a process of its own, its output a pipe (as under a service manager or
 * in a container), on loopback with a data directory of its own; resolves once it listens.
 * Only PATH is inherited: `env` is the whole configuration.
 */
export async function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const port = await freePort()
  const dataDir = await mkdtemp(join(tmpdir(), 'flow-service-process-'))
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk))
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve())).then(() =>
    rm(dataDir, { recursive: true, force: true }),
  )
  await new Promise<void>((resolve, reject) => {
    const look = () => stdout.includes('listening on') && resolve()
    child.stdout!.on('data', look)
    void exited.then(() => reject(new Error(`the service stopped: ${stdout}${stderr}`)))
  })
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stdout: () => stdout,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
      return { stdout, stderr }
    },
  }
}

/**
 * The processes whose parent is `pid` (with WORKERS, the service's workers), from /proc. Read
 * synchronously: a few hundred small reads, which queued behind a busy test's thread pool took
 * seconds.
 */
export function childProcesses(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      let stat = ''
      try {
        stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      } catch {
        return false // it ended meanwhile
      }
      // After the command's closing parenthesis: the state, then the parent's id.
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid
    })
    .map(Number)
}
