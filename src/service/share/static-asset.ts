import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Context } from 'hono'

/** A small file served from memory with a content hash as its ETag. */
export interface StaticAsset {
  body: string
  etag: string
  contentType: string
}

/** Short enough that a fix reaches every visitor soon, long enough to spare repeat loads. */
const CACHE_CONTROL = 'public, max-age=600'

/** Read once at start-up, so a missing file fails there and not in a visitor's browser. */
export function loadAsset(dir: string, name: string, contentType: string): StaticAsset {
  let body: string
  try {
    body = readFileSync(join(dir, name), 'utf8')
  } catch (cause) {
    throw new Error(
      `The share page file ${join(dir, name)} cannot be read: assetsDir must be the folder that holds share.js and share.css`,
      { cause },
    )
  }
  return { body, etag: `"${createHash('sha256').update(body, 'utf8').digest('base64url')}"`, contentType }
}

export function sendAsset(c: Context, asset: StaticAsset): Response {
  c.header('Cache-Control', CACHE_CONTROL)
  c.header('ETag', asset.etag)
  c.header('X-Content-Type-Options', 'nosniff')
  if (
    c.req
      .header('If-None-Match')
      ?.split(/\s*,\s*/)
      .includes(asset.etag)
  )
    return c.body(null, 304)
  c.header('Content-Type', asset.contentType)
  return c.body(asset.body)
}
