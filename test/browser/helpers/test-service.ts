import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, relative, resolve } from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import type { Hono } from 'hono'
import { DEFAULT_CONFIG, type ServiceConfig } from '../../../src/service/config'
import { newToken } from '../../../src/service/ids'
import { type RunningServer, startServer } from '../../../src/service/main'
import type { Store } from '../../../src/service/store/store'
import { QUIET_LOG } from '../../service/helpers/logs'
import { copyInitialisedPglite } from '../../service/helpers/pglite-template'
import { FLOOR_SCRIPT_PATH, mountFloorScript } from './floor-page'
import { type HostFile, type HostSite, startHostSite } from './host-site'
import { floorPage, HOST_CSS, type PageOptions, testPage } from './test-pages'

export const REPO_ROOT = resolve(import.meta.dirname, '../../..')
export const DIST_DIR = join(REPO_ROOT, 'dist')
export const SHARED_FLOWS_DIR = resolve(REPO_ROOT, '../shared/flows')
export const DEMO_FLOWS_DIR = join(REPO_ROOT, 'demo/flows')
export const DEMO_ASSETS_DIR = join(REPO_ROOT, 'demo/assets')
export const TEST_FLOWS_DIR = join(REPO_ROOT, 'test/browser/flows')

/**
 * The host page's CSP: no inline script or style anywhere, so every browser test also proves the
 * widget needs nothing more from a strict host page than its own origin (`service`) where a page
 * lists where scripts, requests and frames may come from. Images, media and frames may also come
 * from elsewhere because real flows point at CDNs.
 */
export function testPageCsp(service: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${service}`,
    "style-src 'self'",
    `img-src 'self' ${service} data: https:`,
    `media-src 'self' ${service} https:`,
    `frame-src 'self' ${service} https:`,
    `font-src 'self' ${service} https:`,
    `connect-src 'self' ${service} https:`,
  ].join('; ')
}

export interface PublishedTestFlow {
  file: string
  id: string
  publicId: string
}

export interface TestService {
  url: string
  /** The flow service's origin (`http://127.0.0.1:<port>`): API, widget files, share pages. */
  origin: string
  /** The site owner's site, on another site than the service: where host pages live. */
  host: HostSite
  /** The widget's script on the service, as pages embed it. */
  script: string
  /** The strict CSP host pages are served with (see testPageCsp). */
  csp: string
  publishableToken: string
  /** The workspace owner's token (outside systems' calls, such as a result's webhook). */
  secretToken: string
  flows: Record<string, PublishedTestFlow>
  store(): Store
  /** The page (on the host site) that embeds `<flow-chat>` for a flow. */
  pageUrl(flow: PublishedTestFlow, options?: Omit<PageOptions, 'flow' | 'apiHost' | 'token'> & { csp?: boolean }): string
  /** The start-up floor's page (on the host site) for a flow: helpers/floor-page.ts. */
  floorUrl(flow: PublishedTestFlow): string
  /** Publishes the flow again, as its owner would after an edit (its `updatedAt` changes). */
  republish(flow: PublishedTestFlow): Promise<void>
  /** Stops the service (the database stays) until `start()`; both do nothing when already so. */
  stop(): Promise<void>
  start(): Promise<void>
  close(): Promise<void>
}

/**
 * What the service serves beside its own routes in tests: the assets the test flows point at, and
 * the start-up floor's script.
 */
function mountFlowAssets(app: Hono) {
  mountFloorScript(app)
  app.use(
    '/demo/assets/*',
    serveStatic({ root: relative(process.cwd(), DEMO_ASSETS_DIR), rewriteRequestPath: (path) => path.replace(/^\/demo\/assets/, '') }),
  )
}

/**
 * The host site's own pages: `/test/page?flow=…` (a page embedding one flow), its stylesheet, and
 * `/test/floor?flow=…` (the start-up floor's page).
 */
function hostPages(service: () => Pick<TestService, 'origin' | 'publishableToken'>) {
  return (path: string, query: URLSearchParams): HostFile | undefined => {
    if (path === '/test/host.css') return { body: HOST_CSS, type: 'text/css' }
    const { origin, publishableToken } = service()
    if (path === '/test/floor') {
      const flow = query.get('flow') ?? ''
      return {
        headers: { 'Content-Security-Policy': testPageCsp(origin) },
        body: floorPage({ flow, apiHost: origin }, FLOOR_SCRIPT_PATH),
      }
    }
    if (path !== '/test/page') return undefined
    return {
      // `csp=0` serves the page without a CSP, so sanitising (not the CSP) is what a test exercises.
      headers: query.get('csp') === '0' ? {} : { 'Content-Security-Policy': testPageCsp(origin) },
      body: testPage({
        flow: query.get('flow') ?? '',
        apiHost: origin,
        token: publishableToken,
        module: query.get('module') === '1',
        twice: query.get('twice') === '1',
        hostCss: query.get('hostCss') === '1',
        userId: query.get('userId') ?? undefined,
        userHash: query.get('userHash') ?? undefined,
      }),
    }
  }
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
  // A fresh embedded database, copied from an initialised one rather than made by initdb again.
  if (!overrides.databaseUrl) await copyInitialisedPglite(join(dataDir, 'pglite'))
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
    log: QUIET_LOG,
    ...overrides,
  }
  let running: RunningServer | undefined
  const boot = async () => {
    running = await startServer(config, { hostname: '127.0.0.1', handleSignals: false, mount: mountFlowAssets })
    // Restarts reuse the port: the pages already open keep talking to the same origin.
    config = { ...config, port: Number(new URL(running.url).port) }
  }
  await boot()
  const origin = `http://127.0.0.1:${config.port}`
  const host = await startHostSite(hostPages(() => ({ origin, publishableToken })))

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
    host,
    script: `${origin}/widget/v1/flow-chat.js`,
    csp: testPageCsp(origin),
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
      if (options.userId !== undefined) query.set('userId', options.userId)
      if (options.userHash !== undefined) query.set('userHash', options.userHash)
      return `${host.origin}/test/page?${query}`
    },
    floorUrl: (flow) => `${host.origin}/test/floor?${new URLSearchParams({ flow: flow.id })}`,
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
      await host.close()
      await running?.close()
      running = undefined
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
