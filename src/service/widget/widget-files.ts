import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { extname, join } from 'node:path'
import type { Context } from 'hono'
import { contentEncoding, type Encoding } from './content-encoding'

/** One file of the built widget, in each encoding the build wrote. */
export interface WidgetFile {
  type: string
  /** A strong validator of the identity body; each encoding's ETag is derived from it. */
  hash: string
  /** Content-hashed chunks never change under their name: cached for a year without asking again. */
  immutable: boolean
  bodies: Partial<Record<Encoding, Uint8Array<ArrayBuffer>>>
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
}

/** `flow-chat-launchers-1a2b3c4d.mjs`: the build names chunks by their content (lazy-chunks.ts). */
const HASHED = /-[0-9a-f]{8}\.mjs$/

/**
 * The widget's files as the build wrote them to `dir` (dist/): the scripts, their chunks and maps,
 * each with the `.br` and `.gz` the build compressed beside it. Read once: a build does not change
 * under a running service (a rebuild is a deploy). Only the top level: the sandbox document in
 * `dir/sandbox` has its own route and headers (routes/sandbox.ts), and `dir/types` is not served.
 */
export function loadWidgetFiles(dir: string): Map<string, WidgetFile> {
  const files = new Map<string, WidgetFile>()
  if (!existsSync(dir)) return files
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const type = TYPES[extname(entry.name)]
    if (!entry.isFile() || !type) continue
    const identity = new Uint8Array(readFileSync(join(dir, entry.name)))
    const bodies: WidgetFile['bodies'] = { identity }
    for (const [encoding, suffix] of [
      ['br', '.br'],
      ['gzip', '.gz'],
    ] as const) {
      const path = join(dir, `${entry.name}${suffix}`)
      if (existsSync(path)) bodies[encoding] = new Uint8Array(readFileSync(path))
    }
    const hash = createHash('sha256').update(identity).digest('base64url').slice(0, 27)
    files.set(entry.name, { type, hash, immutable: HASHED.test(entry.name), bodies })
  }
  return files
}

/** The strong ETag of one encoding of a file (each encoding is a different representation). */
export const etagOf = (file: WidgetFile, encoding: Encoding) => `"${file.hash}${encoding === 'identity' ? '' : `-${encoding}`}"`

/** The encoding to send: the smallest the client accepts among those the build wrote. */
export function pickEncoding(file: WidgetFile, acceptEncoding: string | undefined): Encoding {
  return contentEncoding(
    acceptEncoding,
    (['br', 'gzip'] as const).filter((encoding) => file.bodies[encoding]),
  )
}

/**
 * Answers with one built file: validated by its ETag (a 304 when the client has it), in the
 * smallest encoding the client accepts, `nosniff` with its exact type. The caller sets what
 * differs per route (caching, CORS) first.
 */
export function sendBuiltFile(c: Context, file: WidgetFile): Response {
  const encoding = pickEncoding(file, c.req.header('Accept-Encoding'))
  const etag = etagOf(file, encoding)
  c.header('ETag', etag)
  c.header('Vary', 'Accept-Encoding')
  c.header('X-Content-Type-Options', 'nosniff')
  const match = c.req.header('If-None-Match')?.split(/\s*,\s*/)
  if (match?.includes(etag) || match?.includes(`W/${etag}`) || match?.includes('*')) return c.body(null, 304)
  c.header('Content-Type', file.type)
  if (encoding !== 'identity') c.header('Content-Encoding', encoding)
  return c.body(file.bodies[encoding]!)
}
