import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { promisify } from 'node:util'

const exec = promisify(execFile)

/** Runs a command to its end; its output is returned, and shown in full when it fails. */
export async function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<string> {
  try {
    const { stdout } = await exec(command, args, {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      timeout: options.timeoutMs ?? 300_000,
      maxBuffer: 64 * 1024 * 1024,
    })
    return stdout
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string }
    throw new Error(
      `${command} ${args.join(' ')} failed in ${options.cwd}: ${failed.message}\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`,
    )
  }
}

export interface Started {
  process: ChildProcess
  /** Everything it printed so far. */
  output(): string
  /** SIGTERM, then waits for it to exit. */
  stop(): Promise<void>
}

/** Starts a long-running command and resolves once its output matches `ready` (within `timeoutMs`). */
export function start(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; ready: RegExp; timeoutMs?: number },
): Promise<Started & { match: RegExpMatchArray }> {
  const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const started: Started = {
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
    },
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${command} ${args.join(' ')} did not print ${options.ready} within ${options.timeoutMs ?? 60_000} ms:\n${output}`))
    }, options.timeoutMs ?? 60_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = output.match(options.ready)
      if (match) {
        clearTimeout(timer)
        child.stdout!.off('data', onData)
        child.stdout!.on('data', (more: Buffer) => (output += more.toString()))
        resolve({ ...started, match })
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${command} ${args.join(' ')} exited (${code}) before it was ready:\n${output}`))
    })
  })
}
