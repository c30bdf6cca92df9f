import { createHash } from 'node:crypto'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Hono } from 'hono'
import { afterEach, describe, expect, it } from 'vitest'
import { registerSandboxRoutes, SANDBOX_DOCUMENT_DIR } from '../../../src/service/routes/sandbox'

const sha256 = (text: string) => `sha256-${createHash('sha256').update(text).digest('base64')}`

function app(documentDir?: string) {
  const hono = new Hono()
  registerSandboxRoutes(hono, { documentDir })
  return hono
}

const directives = (csp: string | null) =>
  Object.fromEntries((csp ?? '').split(/;\s*/).map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]))

let tempDir: string | undefined
afterEach(() => {
  if (tempDir) rmSync(tempDir, { recursive: true, force: true })
  tempDir = undefined
})

describe('GET /sandbox/v1/sandbox.html', () => {
  it('serves the document under a policy that allows its script by digest, eval, blob workers and no requests', async () => {
    const res = await app().request('/sandbox/v1/sandbox.html')
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('text/html; charset=utf-8')
    expect(await res.text()).toContain('<script src="sandbox.js"')
    const relay = readFileSync(join(SANDBOX_DOCUMENT_DIR, 'sandbox.js'), 'utf8')
    expect(directives(res.headers.get('Content-Security-Policy'))).toEqual({
      'default-src': "'none'",
      'script-src': `'${sha256(relay)}' 'unsafe-eval'`,
      'worker-src': 'blob:',
      'connect-src': "'none'",
      'base-uri': "'none'",
      'form-action': "'none'",
      sandbox: 'allow-scripts',
    })
  })

  it('carries the same policy in the document itself, for a copy served without the header', async () => {
    const html = await (await app().request('/sandbox/v1/sandbox.html')).text()
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? null
    const relay = readFileSync(join(SANDBOX_DOCUMENT_DIR, 'sandbox.js'), 'utf8')
    // One document serves both variants: its own policy allows the network variant's requests,
    // and the document shuts them itself unless it was asked for that variant.
    expect(directives(meta)).toEqual({
      'default-src': "'none'",
      'script-src': `'${sha256(relay)}' 'unsafe-eval'`,
      'worker-src': 'blob:',
      'connect-src': 'http: https: ws: wss:',
      'base-uri': "'none'",
      'form-action': "'none'",
    })
    expect(html.indexOf('http-equiv="Content-Security-Policy"')).toBeLessThan(html.indexOf('<script'))
  })

  it('can be framed by any page, and says so to browsers that isolate resources', async () => {
    const res = await app().request('/sandbox/v1/sandbox.html')
    expect(res.headers.get('X-Frame-Options')).toBeNull()
    expect(res.headers.get('Content-Security-Policy')).not.toContain('frame-ancestors')
    expect(res.headers.get('Cross-Origin-Resource-Policy')).toBe('cross-origin')
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff')
    expect(res.headers.get('Referrer-Policy')).toBe('no-referrer')
    expect(res.headers.get('Cache-Control')).toBe('public, max-age=600')
  })

  it('serves the variant that allows requests for network=1 only', async () => {
    const connect = async (query: string) =>
      directives((await app().request(`/sandbox/v1/sandbox.html${query}`)).headers.get('Content-Security-Policy'))['connect-src']
    expect(await connect('?network=1')).toBe('http: https: ws: wss:')
    for (const query of ['', '?network=0', '?network=true', '?network=1x']) expect(await connect(query)).toBe("'none'")
  })

  it('answers a revalidation with 304 when nothing changed', async () => {
    const first = await app().request('/sandbox/v1/sandbox.html')
    const etag = first.headers.get('ETag')!
    expect(etag).toMatch(/^"[\w-]+"$/)
    const again = await app().request('/sandbox/v1/sandbox.html', { headers: { 'If-None-Match': `"other", ${etag}` } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    expect((await app().request('/sandbox/v1/sandbox.html', { headers: { 'If-None-Match': '"other"' } })).status).toBe(200)
  })
})

describe('the sandbox script', () => {
  it('is served as JavaScript that an opaque-origin document may load in CORS mode', async () => {
    const res = await app().request('/sandbox/v1/sandbox.js')
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8')
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*')
    expect(res.headers.get('Cross-Origin-Resource-Policy')).toBe('cross-origin')
    expect(await res.text()).toBe(readFileSync(join(SANDBOX_DOCUMENT_DIR, 'sandbox.js'), 'utf8'))
  })

  it('is, with the document, the only file served from the folder', async () => {
    for (const path of [
      '/sandbox/v1/',
      '/sandbox/v1/sandbox-worker.js',
      '/sandbox/v1/../routes/sandbox.ts',
      '/sandbox/v1/other.js',
      '/sandbox/v2/sandbox.html',
    ]) {
      expect((await app().request(path)).status, path).toBe(404)
    }
  })
})

describe('registerSandboxRoutes', () => {
  it('answers 404, saying why, while the widget was never built', async () => {
    tempDir = mkdtempSync(join(tmpdir(), 'flow-chat-sandbox-unbuilt-'))
    const hono = new Hono()
    registerSandboxRoutes(hono, { documentDir: tempDir, optional: true })
    const res = await hono.request('/sandbox/v1/sandbox.html')
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ error: { code: 'not_found', message: expect.stringContaining('npm run build') } })
  })

  it('refuses to start when sandbox.html no longer matches its script', () => {
    tempDir = mkdtempSync(join(tmpdir(), 'flow-chat-sandbox-pages-'))
    cpSync(SANDBOX_DOCUMENT_DIR, tempDir, { recursive: true })
    const edited = `// edited\n${readFileSync(join(tempDir, 'sandbox.js'), 'utf8')}`
    writeFileSync(join(tempDir, 'sandbox.js'), edited)
    expect(() => app(tempDir)).toThrow(`sandbox.html must load sandbox.js with integrity="${sha256(edited)}" crossorigin="anonymous"`)
  })

  it('says which folder it expected when the files are missing', () => {
    expect(() => app(join(SANDBOX_DOCUMENT_DIR, '..'))).toThrow(
      /sandbox\.html cannot be read: documentDir must be the folder that holds sandbox\.html and its script/,
    )
  })

  it('refuses a document that lost its own policy', () => {
    tempDir = mkdtempSync(join(tmpdir(), 'flow-chat-sandbox-pages-'))
    cpSync(SANDBOX_DOCUMENT_DIR, tempDir, { recursive: true })
    const html = readFileSync(join(tempDir, 'sandbox.html'), 'utf8')
    writeFileSync(join(tempDir, 'sandbox.html'), html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>\n/, ''))
    expect(() => app(tempDir)).toThrow(/must carry its own Content-Security-Policy <meta>/)
  })
})
