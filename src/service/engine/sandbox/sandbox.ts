import { availableParallelism } from 'node:os'
import { metrics } from '../../observability/metrics'
import type { SandboxRun } from './sandbox-host'
import { type FairnessKey, SandboxPool } from './sandbox-pool'

/**
 * Runs flow code (Set variable expressions, server-side Scripts) in a QuickJS WebAssembly
 * sandbox on a worker thread. Nothing of the host is exposed: no functions, no modules, no
 * I/O; values go in as a JSON literal and come out as plain data. Each run gets a fresh
 * runtime with its own memory cap and deadline; the module is loaded once and reused.
 */
export interface SandboxLimits {
  timeoutMs: number
  memoryBytes: number
}

export interface SandboxProgram {
  /** Function body; `return` gives the result. */
  body: string
  /** Parameter names (valid identifiers) and their values, in the same order. */
  params: readonly string[]
  args: readonly unknown[]
}

export type { SandboxOutcome, SandboxRun } from './sandbox-host'

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

/** Code of no particular tenant (tests, tools) shares one turn. */
const ANONYMOUS: FairnessKey = { tenant: '', session: '' }

/**
 * Workers for flow code in each of `processes` service processes: the cores left once every
 * process has its event loop, at least one, at most four.
 */
export function defaultCodeWorkers(processes = 1): number {
  return Math.max(1, Math.min(4, Math.floor((availableParallelism() - processes) / processes)))
}

let shared: SandboxPool | undefined

/** The process's default pool, started on first use. */
export function sharedSandboxPool(): SandboxPool {
  shared ??= new SandboxPool({ size: defaultCodeWorkers() })
  return shared
}

export async function runInSandbox(
  program: SandboxProgram,
  limits: SandboxLimits,
  options: { key?: FairnessKey; pool?: SandboxPool } = {},
): Promise<SandboxRun> {
  for (const param of program.params) {
    if (!IDENTIFIER.test(param)) throw new Error(`Invalid sandbox parameter name: ${param}`)
  }
  const pool = options.pool ?? sharedSandboxPool()
  const job = { source: source(program), timeoutMs: limits.timeoutMs, memoryBytes: limits.memoryBytes }
  const run = await pool.run(job, options.key ?? ANONYMOUS)
  metrics.sandboxRuns.inc({ outcome: run.outcome.status })
  return run
}

/** Stops the default pool's workers; the next run starts a new pool. */
export async function closeSandbox(): Promise<void> {
  const pool = shared
  shared = undefined
  await pool?.close()
}

function source(program: SandboxProgram): string {
  const isAsync = /\bawait\b/.test(program.body) ? 'async ' : ''
  // The newline before `}` keeps a trailing `// comment` in the body from swallowing it.
  return `(${isAsync}function (${program.params.join(', ')}) {\n${program.body}\n}).apply(undefined, ${JSON.stringify(program.args)})`
}
