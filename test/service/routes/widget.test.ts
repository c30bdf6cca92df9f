import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import packageJson from '../../../package.json' with { type: 'json' }
import { contentEncoding } from '../../../src/service/http/content-encoding'
import { handleError, handleNotFound } from '../../../src/service/http/errors'
import { registerWidgetRoutes, WIDGET_BASE_PATH } from '../../../src/service/routes/widget'

const SCRIPT = 'var FlowChat=(function(){return {}})();\n'.repeat(50)
const CHUNK = 'export default function(e){return{}}\n'.repeat(20)
let dir: string
let app: Hono

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'flow-chat-widget-files-'))
  const write = (name: string, body: string, compressed = true) => {
    writeFileSync(join(dir, name), body)
    if (!compressed) return
    writeFileSync(join(dir, `${name}.br`), brotliCompressSync(body))
    writeFileSync(join(dir, `${name}.gz`), gzipSync(body))
  }
  write('flow-chat.js', SCRIPT)
  write('flow-chat.mjs', SCRIPT)
  write('flow-chat-launchers-0123abcd.mjs', CHUNK)
  write('flow-chat.js.map', '{"version":3}', false)
  write('notes.txt', 'not for browsers', false)
  mkdirSync(join(dir, 'sandbox'))
  write('sandbox/sandbox.html', '<!doctype html>', false)
  app = new Hono()
  app.onError(handleError)
  app.notFound(handleNotFound)
  registerWidgetRoutes(app, { distDir: dir })
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers })

describe('the widget served by the service', () => {
  it('serves the script to any site, compressed as the browser accepts, with exact types', async () => {
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['gzip, deflate', 'gzip', gunzipSync],
      ['', null, (body: Buffer) => body],
    ] as const) {
      const response = await get(`${WIDGET_BASE_PATH}/flow-chat.js`, accept ? { 'Accept-Encoding': accept } : {})
      expect(response.status, accept).toBe(200)
      expect(response.headers.get('Content-Encoding')).toBe(encoding)
      expect(decode(Buffer.from(await response.arrayBuffer())).toString()).toBe(SCRIPT)
      expect(
        Object.fromEntries(
          ['Content-Type', 'Vary', 'Access-Control-Allow-Origin', 'Cross-Origin-Resource-Policy', 'X-Content-Type-Options'].map((h) => [
            h,
            response.headers.get(h),
          ]),
        ),
      ).toEqual({
        'Content-Type': 'text/javascript; charset=utf-8',
        Vary: 'Accept-Encoding',
        'Access-Control-Allow-Origin': '*',
        'Cross-Origin-Resource-Policy': 'cross-origin',
        'X-Content-Type-Options': 'nosniff',
      })
    }
  })

  it('lets browsers keep content-hashed chunks for good, and revalidate the entry scripts', async () => {
    const chunk = await get(`${WIDGET_BASE_PATH}/flow-chat-launchers-0123abcd.mjs`, { 'Accept-Encoding': 'br' })
    expect(chunk.headers.get('Cache-Control')).toBe('public, max-age=31536000, immutable')
    const entry = await get(`${WIDGET_BASE_PATH}/flow-chat.mjs`, { 'Accept-Encoding': 'br' })
    expect(entry.headers.get('Cache-Control')).toBe('public, max-age=300')
    const etag = entry.headers.get('ETag')!
    expect(etag).toMatch(/^"[\w-]+-br"$/)

    const again = await get(`${WIDGET_BASE_PATH}/flow-chat.mjs`, { 'Accept-Encoding': 'br', 'If-None-Match': etag })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    expect(again.headers.get('ETag')).toBe(etag)
    // Another encoding is another representation: its validator differs, so it is sent in full.
    const gzip = await get(`${WIDGET_BASE_PATH}/flow-chat.mjs`, { 'Accept-Encoding': 'gzip', 'If-None-Match': etag })
    expect(gzip.status).toBe(200)
    expect(gzip.headers.get('ETag')).not.toBe(etag)
  })

  it('answers the same at /dist/, for embeds written before the versioned path', async () => {
    const legacy = await get('/dist/flow-chat.js', { 'Accept-Encoding': 'gzip' })
    const current = await get(`${WIDGET_BASE_PATH}/flow-chat.js`, { 'Accept-Encoding': 'gzip' })
    expect(legacy.status).toBe(200)
    expect(legacy.headers.get('ETag')).toBe(current.headers.get('ETag'))
  })

  it('serves nothing but the widget files: no other file, no path out of the folder', async () => {
    for (const path of [
      `${WIDGET_BASE_PATH}/notes.txt`,
      `${WIDGET_BASE_PATH}/sandbox/sandbox.html`,
      `${WIDGET_BASE_PATH}/..%2fpackage.json`,
      `${WIDGET_BASE_PATH}/%2e%2e/flow-chat.js`,
      `${WIDGET_BASE_PATH}/flow-chat.js.br`,
      `${WIDGET_BASE_PATH}/`,
    ]) {
      const response = await get(path)
      expect(response.status, path).toBe(404)
      expect((await response.json()) as unknown).toMatchObject({ error: { code: 'not_found' } })
    }
  })

  it('says the widget is not built when it is not', async () => {
    const empty = new Hono()
    registerWidgetRoutes(empty, { distDir: join(dir, 'missing') })
    const response = await empty.request(`${WIDGET_BASE_PATH}/flow-chat.js`)
    expect(response.status).toBe(404)
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain('npm run build')
  })

  it('names the major version of the package in its path', () => {
    expect(WIDGET_BASE_PATH).toBe(`/widget/v${packageJson.version.split('.')[0]}`)
  })
})

describe('contentEncoding', () => {
  const both = ['br', 'gzip'] as const
  it.each([
    ['gzip, deflate, br', both, 'br'],
    ['br;q=0.5, gzip;q=0.8', both, 'gzip'],
    ['br;q=0, gzip', both, 'gzip'],
    ['*', both, 'br'],
    ['*;q=0.1, br;q=0', both, 'gzip'],
    ['x-gzip', both, 'gzip'],
    ['identity', both, 'identity'],
    ['deflate', both, 'identity'],
    ['GZIP', both, 'gzip'],
    ['br;q=abc, gzip', both, 'gzip'],
    [undefined, both, 'identity'],
    ['br', ['gzip'] as const, 'identity'],
  ] as const)('%j of %j → %s', (header, available, expected) => {
    expect(contentEncoding(header, available)).toBe(expected)
  })
})
