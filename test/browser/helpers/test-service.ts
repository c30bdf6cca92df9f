import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, extname, join, relative, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { serveStatic } from '@hono/node-server/serve-static'
import type { Context, Hono } from 'hono'
import { DEFAULT_CONFIG, type ServiceConfig } from '../../../src/service/config'
import { newToken } from '../../../src/service/ids'
import { startServer, type RunningServer } from '../../../src/service/main'
import type { Store } from '../../../src/service/store/store'
import { HOST_CSS, testPage, type PageOptions } from './test-pages'

export const REPO_ROOT = resolve(import.meta.dirname, '../../..')
export const DIST_DIR = join(REPO_ROOT, 'dist')
export const SHARED_FLOWS_DIR = resolve(REPO_ROOT, '../shared/flows')
export const DEMO_FLOWS_DIR = join(REPO_ROOT, 'demo/flows')
export const DEMO_ASSETS_DIR = join(REPO_ROOT, 'demo/assets')
export const TEST_FLOWS_DIR = join(REPO_ROOT, 'test/browser/flows')

/**
 * The page CSP: no inline script or style anywhere, so every browser test also proves the widget
 * needs nothing more from a strict host page. Images, media and frames may come from elsewhere
 * because real flows point at CDNs.
 */
export const TEST_PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "media-src 'self' https:",
  "frame-src 'self' https:",
  "font-src 'self' https:",
  "connect-src 'self' https:",
].join('; ')

export interface PublishedTestFlow {
  file: string
  id: string
  publicId: string
}

export interface TestService {
  url: string
  origin: string
  publishableToken: string
  /** The workspace owner's token (outside systems' calls, such as a result's webhook). */
  secretToken: string
  flows: Record<string, PublishedTestFlow>
  store(): Store
  /** The page that embeds `<flow-chat>` for a flow. */
  pageUrl(flow: PublishedTestFlow, options?: Omit<PageOptions, 'flow' | 'apiHost' | 'token'> & { csp?: boolean }): string
  /** Publishes the flow again, as its owner would after an edit (its `updatedAt` changes). */
  republish(flow: PublishedTestFlow): Promise<void>
  /** Stops the service (the database stays) until `start()`; both do nothing when already so. */
  stop(): Promise<void>
  start(): Promise<void>
  close(): Promise<void>
}

function mountTestSite(app: Hono, service: () => Pick<TestService, 'publishableToken'>) {
  app.get('/dist/*', serveDist)
  const axe = readFileSync(join(REPO_ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8')
  // Browsers ask for it on every page; a 404 would read as a console error.
  app.get('/favicon.ico', (c) => c.body(null, 204))
  app.get('/test/host.css', (c) => c.body(HOST_CSS, 200, { 'Content-Type': 'text/css' }))
  app.get('/test/axe.min.js', (c) => c.body(axe, 200, { 'Content-Type': 'text/javascript' }))
  app.use(
    '/demo/assets/*',
    serveStatic({ root: relative(process.cwd(), DEMO_ASSETS_DIR), rewriteRequestPath: (path) => path.replace(/^\/demo\/assets/, '') }),
  )
  app.get('/test/page', (c) => {
    const query = c.req.query()
    // `csp=0` serves the page without a CSP, so sanitising (not the CSP) is what a test exercises.
    if (query.csp !== '0') c.header('Content-Security-Policy', TEST_PAGE_CSP)
    return c.html(
      testPage({
        flow: query.flow ?? '',
        apiHost: new URL(c.req.url).origin,
        token: service().publishableToken,
        module: query.module === '1',
        twice: query.twice === '1',
        hostCss: query.hostCss === '1',
      }),
    )
  })
}

const DIST_TYPES = new Map([
  ['.js', 'text/javascript; charset=utf-8'],
  ['.mjs', 'text/javascript; charset=utf-8'],
  ['.map', 'application/json'],
  ['.html', 'text/html; charset=utf-8'],
])
const gzipped = new Map<string, { mtime: number; body: Buffer }>()

/**
 * The built widget, gzipped once per build as a CDN serves it, so transfer sizes (and the phone
 * profile of the benchmark) are what visitors get.
 */
function serveDist(c: Context) {
  const name = c.req.path.slice('/dist/'.length)
  const type = DIST_TYPES.get(extname(name))
  const file = join(DIST_DIR, name)
  if (!type || name.split('/').includes('..') || !existsSync(file)) return c.notFound()
  const mtime = statSync(file).mtimeMs
  let cached = gzipped.get(file)
  if (cached?.mtime !== mtime) gzipped.set(file, (cached = { mtime, body: gzipSync(readFileSync(file)) }))
  c.header('Content-Type', type)
  c.header('Vary', 'Accept-Encoding')
  if (!/\bgzip\b/.test(c.req.header('Accept-Encoding') ?? '')) return c.body(new Uint8Array(readFileSync(file)))
  c.header('Content-Encoding', 'gzip')
  return c.body(new Uint8Array(cached.body))
}

/**
 * The reference flow service in this process on 127.0.0.1 (port chosen by the OS), over a
 * throw-away PGlite database, with `flowFiles` imported and published and the built widget and
 * test pages served from the same origin.
 */
export async function startTestService(flowFiles: string[], overrides: Partial<ServiceConfig> = {}): Promise<TestService> {
  if (!existsSync(join(DIST_DIR, 'flow-chat.js'))) {
    throw new Error('dist/flow-chat.js is missing: run `npm run build` (vite build) before the browser tests')
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'flow-chat-browser-'))
  const secretToken = newToken('secret')
  const publishableToken = newToken('publishable')
  const unlimited = { perMinute: 0, burst: 1_000_000 }
  let config: ServiceConfig = {
    ...DEFAULT_CONFIG,
    port: 0,
    dataDir,
    secretToken,
    publishableToken,
    rateLimits: { chat: unlimited, management: unlimited },
    // A key of its own, as an operator sets CREDENTIALS_KEY (else the service makes one and says so).
    credentialsKey: randomBytes(32).toString('hex'),
    ...overrides,
  }
  let running: RunningServer | undefined
  const boot = async () => {
    running = await startServer(config, {
      hostname: '127.0.0.1',
      handleSignals: false,
      mount: (app) => mountTestSite(app, () => ({ publishableToken })),
    })
    // Restarts reuse the port: the pages already open keep talking to the same origin.
    config = { ...config, port: Number(new URL(running.url).port) }
  }
  await boot()
  const origin = `http://127.0.0.1:${config.port}`

  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: { Authorization: `Bearer ${secretToken}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const json = (await response.json()) as { flow?: { id: string; publicId: string } }
    if (!response.ok) throw new Error(`${method} ${path} failed with ${response.status}: ${JSON.stringify(json)}`)
    return json
  }
  const flows: Record<string, PublishedTestFlow> = {}
  for (const path of flowFiles) {
    const flow = JSON.parse(readFileSync(path, 'utf8')) as unknown
    const imported = await api('POST', '/v1/flows/import', { workspaceId: 'demo', flow })
    const id = imported.flow!.id
    await api('POST', `/v1/flows/${id}/publish`)
    flows[basename(path)] = { file: basename(path), id, publicId: imported.flow!.publicId }
  }

  return {
    url: origin,
    origin,
    publishableToken,
    secretToken,
    flows,
    store: () => running!.store,
    pageUrl: (flow, options = {}) => {
      const query = new URLSearchParams({ flow: flow.id })
      if (options.module) query.set('module', '1')
      if (options.twice) query.set('twice', '1')
      if (options.csp === false) query.set('csp', '0')
      if (options.hostCss) query.set('hostCss', '1')
      return `${origin}/test/page?${query}`
    },
    republish: async (flow) => {
      await api('POST', `/v1/flows/${flow.id}/publish`)
    },
    stop: async () => {
      await running?.close()
      running = undefined
    },
    start: async () => {
      if (!running) await boot()
    },
    close: async () => {
      await running?.close()
      running = undefined
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
