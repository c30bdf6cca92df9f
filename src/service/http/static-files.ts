import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import type { Context } from 'hono'
import { etag, RETAINED_304_HEADERS } from 'hono/etag'
import { contentEncoding, type Encoding } from './content-encoding'

/**
 * The one static-file answer: the widget's files, the console's, the share page's script and
 * stylesheet and the script sandbox's document are each a `StaticFile` held in memory, answered
 * by `sendStaticFile` behind the `conditionalGet` middleware. A route sets what differs (caching,
 * CORS, a policy) before it answers.
 */

/** One file in memory, in each encoding the build wrote beside it. */
export interface StaticFile {
  type: string
  /** A strong validator of the identity body; each encoding's ETag is derived from it. */
  hash: string
  bodies: Partial<Record<Encoding, Uint8Array<ArrayBuffer>>>
}

/**
 * The file `path`, with the `.br` and `.gz` a build compressed beside it when there are, read
 * once (at start-up, so a missing file fails there and not in a visitor's browser). `hint` says
 * what to check when it cannot be read.
 */
export function readStaticFile(path: string, type: string, hint?: string): StaticFile {
  let identity: Uint8Array<ArrayBuffer>
  try {
    identity = new Uint8Array(readFileSync(path))
  } catch (cause) {
    throw new Error(`The file ${path} cannot be read${hint ? `: ${hint}` : ''}`, { cause })
  }
  const bodies: StaticFile['bodies'] = { identity }
  for (const [encoding, suffix] of [
    ['br', '.br'],
    ['gzip', '.gz'],
  ] as const) {
    if (existsSync(`${path}${suffix}`)) bodies[encoding] = new Uint8Array(readFileSync(`${path}${suffix}`))
  }
  return { type, hash: createHash('sha256').update(identity).digest('base64url').slice(0, 27), bodies }
}

/** The strong ETag of one encoding of a file (each encoding is a different representation). */
export const etagOf = (file: StaticFile, encoding: Encoding) => `"${file.hash}${encoding === 'identity' ? '' : `-${encoding}`}"`

/**
 * Conditional GET (RFC 9110 §13.1.2), Hono's `etag` middleware: `If-None-Match` matches by weak
 * comparison (`W/"x"` matches `"x"`), as a list or as `*`, and is answered 304 with no body. The
 * 304 keeps what a cached copy is checked against besides the validators: the CORS and CORP
 * headers a page on another site reads the file with, and `nosniff`.
 */
export const conditionalGet = etag({
  retainedHeaders: [
    ...RETAINED_304_HEADERS,
    'access-control-allow-origin',
    'cross-origin-resource-policy',
    'timing-allow-origin',
    'x-content-type-options',
  ],
})

/**
 * Answers with one file: its ETag, in the smallest encoding the client accepts, `nosniff` with
 * its exact type. Behind `conditionalGet`, a request that has this representation gets a 304.
 */
export function sendStaticFile(c: Context, file: StaticFile): Response {
  const encodings = (['br', 'gzip'] as const).filter((encoding) => file.bodies[encoding])
  const encoding = contentEncoding(c.req.header('Accept-Encoding'), encodings)
  c.header('ETag', etagOf(file, encoding))
  if (encodings.length > 0) c.header('Vary', 'Accept-Encoding')
  c.header('X-Content-Type-Options', 'nosniff')
  c.header('Content-Type', file.type)
  if (encoding !== 'identity') c.header('Content-Encoding', encoding)
  return c.body(file.bodies[encoding]!)
}
