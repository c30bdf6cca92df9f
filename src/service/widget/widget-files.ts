import { existsSync, readdirSync } from 'node:fs'
import { extname, join } from 'node:path'
import { readStaticFile, type StaticFile } from '../http/static-files'

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
}

/**
 * The files a build wrote to `dir` (the widget's dist/, the console's dist/admin): the scripts,
 * their chunks, maps and stylesheets, each with the `.br` and `.gz` the build compressed beside
 * it. Read once: a build does not change under a running service (a rebuild is a deploy). Only
 * the top level: the sandbox document in `dir/sandbox` has its own route and headers
 * (routes/sandbox.ts), and `dir/types` is not served.
 */
export function loadBuiltFiles(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>()
  if (!existsSync(dir)) return files
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const type = TYPES[extname(entry.name)]
    if (entry.isFile() && type) files.set(entry.name, readStaticFile(join(dir, entry.name), type))
  }
  return files
}
