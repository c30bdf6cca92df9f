import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { join } from 'node:path'

/**
 * The service as operators run it: `src/service/main.ts` in a child process of its own, on a
 * free loopback port, with the environment given (on top of this process's).
 */

const MAIN = join(import.meta.dirname, '../../../src/service/main.ts')

export interface ServiceProcess {
  url: string
  child: ChildProcess
  /** Stops the process (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>
}

export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Starts the service and resolves once it says it listens. */
export async function startServiceProcess(env: Record<string, string | undefined>): Promise<ServiceProcess> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  await new Promise<void>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes('listening on')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`service exited with ${code}: ${out}`)))
  })
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    stop: () => new Promise((resolve) => (child.exitCode === null && child.signalCode === null ? (child.once('exit', () => resolve()), child.kill('SIGTERM')) : resolve())),
  }
}
