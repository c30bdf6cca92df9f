import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import type { Database } from '../../../src/service/store/database'
import { wrapPglite } from '../../../src/service/store/pglite-database'

/**
 * A fresh in-memory PGlite, started from a cached copy of an initialised data directory: most
 * of PGlite's start-up is `initdb`, which every test file would otherwise repeat. The cache is
 * keyed by the PGlite version and written atomically, so parallel workers can share it.
 */
export async function openTemplatedPglite(): Promise<Database> {
  const { dir, version } = await cache()
  const file = join(dir, `pglite-${version}.tar`)
  try {
    const bytes = await readFile(file)
    return wrapPglite(await PGlite.create({ loadDataDir: new Blob([bytes]) }))
  } catch {
    // No usable cache yet: initialise from scratch and leave a copy for the next file.
  }
  const db = await PGlite.create()
  const dump = await db.dumpDataDir('none')
  await mkdir(dir, { recursive: true })
  const partial = `${file}.${process.pid}.partial`
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()))
  await rename(partial, file)
  return wrapPglite(db)
}

/** Where templates are cached, and the PGlite version they are for. */
async function cache(): Promise<{ dir: string; version: string }> {
  const manifest = join(process.cwd(), 'node_modules/@electric-sql/pglite/package.json')
  const { version } = JSON.parse(await readFile(manifest, 'utf8')) as { version: string }
  return { dir: join(tmpdir(), 'flow-service-test-cache'), version }
}

/**
 * Fills `target` (a service's `DATA_DIR/pglite`) with a copy of an initialised, empty PGlite data
 * directory, so that the service opens it as a database made before, not running `initdb` again
 * (tens of seconds of a test file on a busy machine). The service still runs its migrations on it.
 */
export async function copyInitialisedPglite(target: string): Promise<void> {
  const { dir, version } = await cache()
  const template = join(dir, `pglite-${version}-dir`)
  try {
    await readFile(join(template, 'PG_VERSION'))
  } catch {
    await mkdir(dir, { recursive: true })
    const partial = await mkdtemp(join(dir, `pglite-${version}-dir.partial-`))
    const db = await PGlite.create(partial)
    await db.close()
    // Another worker may have made it meanwhile: theirs is as good as ours.
    await rename(partial, template).catch(() => rm(partial, { recursive: true, force: true }))
  }
  await cp(template, target, { recursive: true })
}
