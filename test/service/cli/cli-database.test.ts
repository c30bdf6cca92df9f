import { execFile, spawn } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { adminSocketPath } from '../../../src/service/cli/admin-socket'
import { DEFAULT_CONFIG } from '../../../src/service/config'
import { openStore, storeOptionsFrom } from '../../../src/service/store/open-store'

/**
 * Which database the command line works on when nothing names a service: the embedded one in
 * DATA_DIR (default ./.data), only if the service made it. Run as a user runs it, in a process of
 * its own, from a folder of its own, with none of this test run's database settings.
 */

const CLI = join(import.meta.dirname, '../../../src/service/cli/flows.ts')
// From any folder: tsx as this project has it.
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
let dir: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'flows-cli-database-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  // What a user's shell has: no DATABASE_URL, no service to call, no npm project around.
  const {
    DATABASE_URL: _d,
    DATA_DIR: _a,
    FLOW_SERVICE_URL: _u,
    FLOW_SECRET_TOKEN: _t,
    npm_config_local_prefix: _p,
    INIT_CWD: _i,
    ...shell
  } = process.env
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', TSX, CLI, ...args], { cwd: dir, env: { ...shell, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    )
  })
}

describe('the command line with neither DATABASE_URL nor FLOW_SERVICE_URL', () => {
  it('refuses to make an embedded database nobody asked for, and says how to point it at one', async () => {
    const listed = await cli(['list'])
    expect(listed.code).toBe(1)
    expect(listed.stdout).toBe('')
    expect(listed.stderr).toContain(`No flow service database in ${join(dir, '.data')}, and the command line does not make one.`)
    for (const setting of ['DATA_DIR=', 'DATABASE_URL=', 'FLOW_SERVICE_URL=']) expect(listed.stderr).toContain(setting)
    expect(existsSync(join(dir, '.data'))).toBe(false)

    // A folder named by DATA_DIR that holds no database is no service's data either.
    const empty = join(dir, 'empty')
    await mkdir(empty)
    const created = await cli(['token', 'create', '--kind', 'secret'], { DATA_DIR: empty })
    expect(created.code).toBe(1)
    expect(created.stderr).toContain(`No flow service database in ${empty}`)
    expect(readdirSync(empty)).toEqual([])
  }, 60_000)

  it('works on the database the service made, also when a killed service left its socket there', async () => {
    const dataDir = join(dir, 'data')
    await (await openStore(storeOptionsFrom({ ...DEFAULT_CONFIG, dataDir, databaseUrl: undefined }))).close()
    // A service killed without closing: its socket file stays, and nothing answers on it.
    const socket = adminSocketPath(dataDir)
    const holder = spawn(process.execPath, [
      '-e',
      `require('node:net').createServer().listen(${JSON.stringify(socket)}, () => console.log('up'))`,
    ])
    await new Promise((resolve) => holder.stdout.once('data', resolve))
    holder.kill('SIGKILL')
    await new Promise((resolve) => holder.once('exit', resolve))
    expect(existsSync(socket)).toBe(true)

    const listed = await cli(['token', 'list'], { DATA_DIR: dataDir })
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stdout.trim()).toBe('No tokens.')
  }, 120_000)
})
