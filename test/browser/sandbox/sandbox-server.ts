import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { build } from 'vite'
import { registerSandboxRoutes, SANDBOX_DOCUMENT_DIR, SANDBOX_DOCUMENT_PATH } from '../../../src/service/routes/sandbox'

const REPO_ROOT = resolve(import.meta.dirname, '../../..')
const HOST_ENTRY = join(REPO_ROOT, 'test/browser/sandbox/host-entry.ts')
const HOST_BUNDLE = 'sandbox-host.js'

export interface RecordedRequest {
  method: string
  path: string
  cookie: string | undefined
}

export interface HostPageOptions {
  timeoutMs?: number
  network?: boolean
  /** The page's `frame-src`; by default exactly the sandbox origin, as the docs tell site owners. */
  frameSrc?: string
  /** Loads the sandbox document as a careless host would serve a copy: without its CSP header. */
  withoutHeader?: boolean
}

export interface SandboxTestServer {
  /** The host page's origin. */
  origin: string
  /** The same server under another name: cross-origin to the page, as the service is in production. */
  sandboxOrigin: string
  hostUrl(options?: HostPageOptions): string
  /** Every request that reached this server. */
  requests: RecordedRequest[]
  /** Another loopback server, which no script may reach unless the runner allows network access. */
  canary: { origin: string; requests: RecordedRequest[] }
  /** The host page's script, as built. */
  hostBundle: string
  close(): Promise<void>
}

/** The host page's script: a Vite build of host-entry.ts, the sandbox code bundled as the widget bundles it. */
async function buildHostBundle(outDir: string): Promise<string> {
  await build({
    configFile: false,
    logLevel: 'warn',
    root: REPO_ROOT,
    build: {
      outDir,
      emptyOutDir: true,
      minify: false,
      target: 'es2022',
      lib: { entry: HOST_ENTRY, formats: ['es'], fileName: () => HOST_BUNDLE },
    },
  })
  return readFileSync(join(outDir, HOST_BUNDLE), 'utf8')
}

async function listen(app: Hono): Promise<{ port: number; close(): Promise<void> }> {
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }) as Server
  await new Promise<void>((ready) => server.once('listening', () => ready()))
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  }
}

const recorder =
  (requests: RecordedRequest[]) =>
  async (c: { req: { method: string; path: string; header(name: string): string | undefined } }, next: () => Promise<void>) => {
    requests.push({ method: c.req.method, path: c.req.path, cookie: c.req.header('Cookie') })
    await next()
  }

/**
 * A server with the sandbox routes, a `/collect` endpoint a script might try to reach, and a host
 * page under a strict CSP (no inline or eval'd script or style); plus a canary server elsewhere on
 * loopback that records whatever reaches it.
 */
export async function startSandboxTestServer(): Promise<SandboxTestServer> {
  const bundleDir = mkdtempSync(join(tmpdir(), 'flow-chat-sandbox-host-'))
  const hostBundle = await buildHostBundle(bundleDir)

  const requests: RecordedRequest[] = []
  const app = new Hono()
  app.use('*', recorder(requests))
  registerSandboxRoutes(app)
  app.get('/favicon.ico', (c) => c.body(null, 204))
  app.all('/collect', (c) => c.text('collected'))
  // The built document as plain static files: no Content-Security-Policy header, only the CORS
  // header an opaque-origin document needs to load its script with integrity.
  for (const [name, type] of [
    ['sandbox.html', 'text/html; charset=utf-8'],
    ['sandbox.js', 'text/javascript; charset=utf-8'],
  ]) {
    const body = readFileSync(join(SANDBOX_DOCUMENT_DIR, name!), 'utf8')
    app.get(`/bare/${name}`, (c) => c.body(body, 200, { 'Content-Type': type!, 'Access-Control-Allow-Origin': '*' }))
  }
  app.get(`/host/${HOST_BUNDLE}`, (c) => c.body(hostBundle, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }))
  let sandboxOrigin = ''
  app.get('/host', (c) => {
    const frameSrc = c.req.query('frameSrc') ?? sandboxOrigin
    c.header('Content-Security-Policy', `default-src 'self'; script-src 'self'; style-src 'self'; frame-src ${frameSrc}`)
    return c.html(`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Sandbox host page</title><script type="module" src="/host/${HOST_BUNDLE}"></script></head>
<body><h1>Host page</h1></body>
</html>`)
  })
  const service = await listen(app)
  const origin = `http://127.0.0.1:${service.port}`
  sandboxOrigin = `http://localhost:${service.port}`

  const canaryRequests: RecordedRequest[] = []
  const canaryApp = new Hono()
  canaryApp.use('*', recorder(canaryRequests))
  canaryApp.all('*', (c) => c.text('canary', 200, { 'Access-Control-Allow-Origin': '*' }))
  const canary = await listen(canaryApp)

  return {
    origin,
    sandboxOrigin,
    hostUrl(options = {}) {
      const document = options.withoutHeader ? '/bare/sandbox.html' : SANDBOX_DOCUMENT_PATH
      const query = new URLSearchParams({ sandbox: `${sandboxOrigin}${document}` })
      if (options.timeoutMs !== undefined) query.set('timeout', String(options.timeoutMs))
      if (options.network) query.set('network', '1')
      if (options.frameSrc !== undefined) query.set('frameSrc', options.frameSrc)
      return `${origin}/host?${query}`
    },
    requests,
    canary: { origin: `http://127.0.0.1:${canary.port}`, requests: canaryRequests },
    hostBundle,
    async close() {
      await Promise.all([service.close(), canary.close()])
      rmSync(bundleDir, { recursive: true, force: true })
    },
  }
}
