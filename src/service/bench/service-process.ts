/**
 * The processes a benchmark measures: targets started with tsx in processes of their own, each
 * on a fresh database (a data directory, or a schema on the PostgreSQL server of DATABASE_URL),
 * seeded straight through the store.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { importFlowSchema } from '../../protocol/index'
import { importFlow, publishFlow } from '../flows/flow-service'
import { type OpenStoreOptions, openStore } from '../store/open-store'

export type DatabaseKind = 'embedded' | 'postgres'

export const databaseUrl = process.env.DATABASE_URL || undefined
const MAIN = join(import.meta.dirname, '../main.ts')

export interface Target {
  url: string
  /** The process's id (its memory is read from /proc). */
  pid: number | undefined
  stop(): Promise<void>
}

/** Starts `file` with tsx in a process of its own; resolves once it says where it listens. */
export function spawnTarget(file: string, args: string[], env: Record<string, string>): Promise<Target> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    })
  return new Promise((resolve, reject) => {
    let out = ''
    const listening = (chunk: Buffer) => {
      out += chunk.toString()
      const port = /listening (?:on http:\/\/localhost:)?(\d+)/.exec(out)?.[1]
      if (!port) return
      // From here on its log (an access line per request) is read and dropped, as a collector would.
      child.stdout!.off('data', listening).resume()
      resolve({ url: `http://127.0.0.1:${port}`, pid: child.pid, stop })
    }
    child.stdout!.on('data', listening)
    child.once('exit', (code) => reject(new Error(`${file} ${args.join(' ')} exited with ${code}: ${out}`)))
  })
}

/** A database for one target: a fresh data directory, or a fresh schema on the server. */
export async function freshDatabase(
  kind: DatabaseKind,
  name: string,
): Promise<{ env: Record<string, string>; store: OpenStoreOptions; dataDir: string; cleanup: () => Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), `flow-bench-${name}-`))
  const removeDir = () => rm(dataDir, { recursive: true, force: true })
  if (kind === 'postgres') {
    const schema = `bench_${name}_${process.pid}`
    return {
      env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl!, DATABASE_SCHEMA: schema },
      store: { databaseUrl, schema },
      dataDir,
      cleanup: async () => {
        await dropSchema(schema)
        await removeDir()
      },
    }
  }
  return {
    // Blank, not inherited: the embedded run must not pick up the server the bench was given.
    env: { DATA_DIR: dataDir, DATABASE_URL: '' },
    store: { dataDir: join(dataDir, 'pglite') },
    dataDir,
    cleanup: removeDir,
  }
}

async function dropSchema(schema: string): Promise<void> {
  const store = await openStore({ databaseUrl, schema })
  await store.database.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`)
  await store.close()
}

/** Imports and publishes each flow in its workspace, straight into the store; returns their ids by name. */
export async function seed<Name extends string>(
  options: OpenStoreOptions,
  flows: Record<Name, { workspace: string; flow: unknown }>,
): Promise<Record<Name, string>> {
  const store = await openStore(options)
  try {
    const now = new Date()
    const ids = {} as Record<Name, string>
    for (const [name, { workspace, flow }] of Object.entries(flows) as [Name, { workspace: string; flow: unknown }][]) {
      await store.workspaces.ensure(workspace, workspace, now)
      const record = await importFlow(store, { workspaceId: workspace, flow: importFlowSchema.parse(flow), now })
      await publishFlow(store, { flowId: record.id, now, authorize: () => undefined, publishedBy: 'benchmark' })
      ids[name] = record.id
    }
    return ids
  } finally {
    await store.close()
  }
}

/** The service (main.ts) on a fresh, seeded database, for the time `run` takes. */
export async function withService<Name extends string, T>(
  kind: DatabaseKind,
  options: { name: string; env: Record<string, string>; flows: Record<Name, { workspace: string; flow: unknown }> },
  run: (url: string, flows: Record<Name, string>, dataDir: string) => Promise<T>,
): Promise<T> {
  const database = await freshDatabase(kind, options.name)
  try {
    const flows = await seed(database.store, options.flows)
    const service = await spawnTarget(MAIN, [], { ...database.env, ...options.env })
    try {
      return await run(service.url, flows, database.dataDir)
    } finally {
      await service.stop()
    }
  } finally {
    await database.cleanup()
  }
}
