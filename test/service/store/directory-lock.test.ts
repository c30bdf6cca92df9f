import { spawnSync } from 'node:child_process'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { lockDirectory } from '../../../src/service/store/directory-lock'

let base: string
let dir: string
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'flow-lock-'))
  dir = join(base, 'pglite')
})
afterEach(() => rm(base, { recursive: true, force: true }))

describe('lockDirectory', () => {
  it('holds the directory until released', async () => {
    const release = await lockDirectory(dir)
    expect(await readFile(`${dir}.lock`, 'utf8')).toBe(String(process.pid))
    await expect(lockDirectory(dir)).rejects.toThrow(/already open in this process/)
    await release()
    await expect(stat(`${dir}.lock`)).rejects.toThrow()
    await (await lockDirectory(dir))()
  })

  it('refuses a directory another running process holds', async () => {
    await writeFile(`${dir}.lock`, String(process.ppid))
    await expect(lockDirectory(dir)).rejects.toThrow(new RegExp(`in use by process ${process.ppid}`))
  })

  it('takes over a lock whose process has exited', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString()
    await writeFile(`${dir}.lock`, gone)
    const release = await lockDirectory(dir)
    expect(await readFile(`${dir}.lock`, 'utf8')).toBe(String(process.pid))
    await release()
  })
})
