import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
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
  const manifest = join(process.cwd(), 'node_modules/@electric-sql/pglite/package.json')
  const { version } = JSON.parse(await readFile(manifest, 'utf8')) as { version: string }
  const dir = join(tmpdir(), 'flow-service-test-cache')
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
