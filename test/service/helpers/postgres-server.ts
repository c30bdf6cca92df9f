import { execFile } from 'node:child_process'
import { chown, mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { freePort } from './service-process'

const run = promisify(execFile)

/**
 * A PostgreSQL server of a test's own, on loopback, started as .ci/run starts the suite's (initdb,
 * then pg_ctl; as the `postgres` user when the tests run as root): a test may stop it under a
 * service and start it again, which the suite's shared server must never be.
 */
export interface PostgresServer {
  readonly url: string
  stop(): Promise<void>
  start(): Promise<void>
  /** Stops it and deletes its data. */
  close(): Promise<void>
}

/** The newest installed server's programs (Debian's layout), if any. */
export async function postgresBin(): Promise<string | undefined> {
  const versions = await readdir('/usr/lib/postgresql').catch(() => [] as string[])
  const newest = versions.filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a))[0]
  return newest === undefined ? undefined : `/usr/lib/postgresql/${newest}/bin`
}

export async function startPostgresServer(bin: string): Promise<PostgresServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'flow-test-pg-'))
  const asRoot = process.getuid?.() === 0
  // initdb and the server refuse to run as root.
  const pg = (program: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, program), ...args]) : run(join(bin, program), args)
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres'])
    const uid = Number(stdout.trim())
    await chown(dataDir, uid, uid)
  }
  const port = await freePort()
  await pg('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres'])
  const options = `-p ${port} -k ${dataDir} -c listen_addresses=127.0.0.1 -c fsync=off`
  const start = async () => void (await pg('pg_ctl', ['-D', dataDir, '-l', join(dataDir, 'server.log'), '-w', '-o', options, 'start']))
  const stop = async () => void (await pg('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']))
  await start()
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    async close() {
      await stop().catch(() => undefined)
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
