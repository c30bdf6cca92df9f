import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { serveStatic } from '@hono/node-server/serve-static'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CROSS_SITE_FLOW, expectCleanWalk, type PageCase, pageCases, walkToTheEnd } from './embed/cross-site-walk'
import { useBrowserSuite } from './helpers/browser-suite'
import { axeViolations } from './helpers/chat-page'
import { fillIn, htmlSnippets, modeOf } from './helpers/doc-snippets'
import { DIST_DIR, TEST_FLOWS_DIR, type TestService } from './helpers/test-service'
import { recordTransfers } from './helpers/transfers'
import { adaptPlaywright, type WalkPage } from './helpers/walk'

/**
 * The product's one situation: a flow served by the flow service, embedded on a site owner's page
 * at another address. Here the page is on `localhost`, the service on `127.0.0.1` (another site),
 * and a copy of the widget on a third address stands for a CDN. Each way to embed, and every HTML
 * snippet of the docs, must show the flow's theme, its rich inputs and its launcher, and reach
 * the flow's end, with no failed request and no error event.
 */
const suite = useBrowserSuite([join(TEST_FLOWS_DIR, CROSS_SITE_FLOW)])

/** A CDN: a copy of the built widget at a versioned path, on an address of its own. */
let cdn: { origin: string; close(): Promise<void> }

beforeAll(async () => {
  const copy = mkdtempSync(join(tmpdir(), 'flow-chat-cdn-'))
  cpSync(DIST_DIR, join(copy, 'flow-chat@1.0.0'), { recursive: true })
  const app = new Hono()
  app.use('*', async (c, next) => {
    await next()
    // What public CDNs send for scripts: any page may load them, in CORS mode too.
    c.header('Access-Control-Allow-Origin', '*')
  })
  app.use('/*', serveStatic({ root: copy.replace(process.cwd(), '.').replace(/^\.\//, '') }))
  // 127.0.0.2 is loopback too, and another site than both the page and the service.
  const server = await new Promise<Server>((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.2' }, () => resolve(started as Server)) as Server
  })
  cdn = {
    origin: `http://127.0.0.2:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          rmSync(copy, { recursive: true, force: true })
          resolve()
        })
        // Browsers keep connections open; close() alone would wait for each to time out.
        server.closeAllConnections()
      }),
  }
})
afterAll(() => cdn?.close())

const flowOf = (service: TestService) => service.flows[CROSS_SITE_FLOW]!

/** Opens `body` on the host site under `csp` (none: as most pages are) and walks it to the flow's end. */
async function walkPage(name: string, { body, mode }: Pick<PageCase, 'body' | 'mode'>, csp?: string): Promise<WalkPage> {
  const service = suite.service
  const page = await suite.newPage()
  const walk = await adaptPlaywright(page)
  const url = service.host.serve(`/cross-site/${encodeURIComponent(name)}`, {
    headers: csp ? { 'Content-Security-Policy': csp } : {},
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title></head><body><main><h1>A shop</h1>${body}</main></body></html>`,
  })
  await walk.goto(url)
  await walkToTheEnd(walk, mode, service.origin)
  expect(await axeViolations(page)).toEqual([])
  return walk
}

describe("the documentation's embedding snippets, pasted into a page on another site", () => {
  const snippets = htmlSnippets()

  it('are there to run', () => {
    expect(snippets.length).toBeGreaterThanOrEqual(10)
  })

  for (const snippet of snippets) {
    it(snippet.name, async () => {
      const { origin, publishableToken } = suite.service
      const code = fillIn(snippet.code, { service: origin, flow: flowOf(suite.service).publicId, token: publishableToken })
      await expectCleanWalk(await walkPage(snippet.name, { body: code, mode: modeOf(code) }))
    })
  }

  it('pasted with the placeholder token left in: visitors read that the chat is not set up, the owner reads why', async () => {
    const { origin } = suite.service
    const snippet = snippets.find((entry) => entry.name.startsWith('README.md'))!
    const code = fillIn(snippet.code, { service: origin, flow: flowOf(suite.service).publicId, token: 'YOUR_PUBLISHABLE_TOKEN' })
    const page = await suite.newPage()
    const walk = await adaptPlaywright(page)
    const consoleErrors: string[] = []
    page.on('console', (message) => void (message.type() === 'error' && consoleErrors.push(message.text())))
    await walk.goto(
      suite.service.host.serve('/cross-site/placeholder-token', {
        body: `<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>A shop</h1>${code}</main></body></html>`,
      }),
    )
    await walk.waitFor('[part~="notice"][role="status"] p', 'This chat is not set up yet.')
    const record = await walk.record()
    expect(record.errors).toEqual([
      {
        code: 'not-set-up',
        message: expect.stringMatching(/^This chat is not set up: .*Authorization.* Check the chat's token/),
        status: 401,
        serviceCode: 'unauthorized',
        retryable: false,
        details: expect.stringMatching(/Authorization/),
      },
    ])
    expect(consoleErrors.some((text) => text.startsWith('[flow-chat] This chat is not set up:'))).toBe(true)
    expect(await axeViolations(page)).toEqual([])
  })
})

describe('every way to embed, from another site', () => {
  const cases = () => pageCases({ service: suite.service, flow: flowOf(suite.service), cdn: cdn.origin })
  for (const name of [
    'inline script tag',
    'bubble',
    'popup',
    'launcher element',
    'module build',
    'crossorigin script',
    'old /dist/ path',
    'CDN copy',
    'two copies',
  ]) {
    it(name, async () => {
      const found = cases().find((entry) => entry.name === name)!
      const walk = await walkPage(name, found)
      await expectCleanWalk(walk)
      // Each copy of the widget loads its chunks from where its script came from.
      const chunks = await walk.evaluate<string[]>(
        "performance.getEntriesByType('resource').map((entry) => entry.name).filter((url) => /flow-chat-ui-/.test(url))",
      )
      const expected = {
        'CDN copy': [`${cdn.origin}/flow-chat@1.0.0/`],
        'old /dist/ path': [`${suite.service.origin}/dist/`],
        'two copies': [`${suite.service.origin}/widget/v1/`, `${cdn.origin}/flow-chat@1.0.0/`],
      }[name] ?? [`${suite.service.origin}/widget/v1/`]
      expect(chunks.map((url) => url.replace(/flow-chat-ui-.*$/, '')).sort()).toEqual(expected.sort())
    })
  }

  for (const name of ['inline script tag', 'bubble', 'module build', 'CDN copy']) {
    it(`${name}, under a CSP that names only the widget's origins`, async () => {
      const found = cases().find((entry) => entry.name === name)!
      const origins = [suite.service.origin, ...(found.name === 'CDN copy' ? [cdn.origin] : [])].join(' ')
      // Nothing inline, nothing from the page's own origin: the widget needs only its own.
      const csp = `default-src 'none'; script-src ${origins}; connect-src ${suite.service.origin}; img-src ${suite.service.origin}; frame-src ${suite.service.origin}`
      await expectCleanWalk(await walkPage(`${name} (strict CSP)`, found, csp))
    })
  }

  it('inline script tag, on a page that enforces Trusted Types', async () => {
    // The inline chat builds its content as elements; no string reaches an HTML sink.
    const found = cases().find((entry) => entry.name === 'inline script tag')!
    await expectCleanWalk(await walkPage('inline script tag (Trusted Types)', found, "require-trusted-types-for 'script'"))
  })

  it('the full-page share link', async () => {
    const page = await suite.newPage()
    const walk = await adaptPlaywright(page)
    await walk.goto(`${suite.service.origin}/${flowOf(suite.service).publicId}`)
    await walkToTheEnd(walk, 'inline', suite.service.origin)
    expect(await axeViolations(page)).toEqual([])
    await expectCleanWalk(walk)
  })
})

describe('what crosses the wire', () => {
  it('the core compressed (at most 32 KB on a first visit), and nothing of the widget again on a repeat visit', async () => {
    const { service } = suite
    const found = pageCases({ service, flow: flowOf(service), cdn: cdn.origin }).find((entry) => entry.name === 'inline script tag')!
    const url = service.host.serve(
      '/wire',
      `<!doctype html><html lang="en"><head><title>Wire</title></head><body><main><h1>Wire</h1>${found.body}</main></body></html>`,
    )
    const visit = async () => {
      const page = await suite.newPage()
      const transfers = await recordTransfers(await suite.chromium.context.newCDPSession(page))
      const walk = await adaptPlaywright(page)
      await walk.goto(url)
      await walk.waitFor('[part~="host-bubble"]', 'Which plan suits you?')
      await walk.waitFor('button', 'Team')
      return transfers().filter((transfer) => transfer.url.startsWith(`${service.origin}/widget/`))
    }
    const clearing = await suite.newPage()
    await (await suite.chromium.context.newCDPSession(clearing)).send('Network.clearBrowserCache')

    const first = await visit()
    const core = first.find((transfer) => transfer.url.endsWith('/flow-chat.js'))!
    expect(core.fromCache).toBe(false)
    expect(core.bytes).toBeGreaterThan(0)
    expect(core.bytes).toBeLessThanOrEqual(32 * 1024)
    console.log(
      `first visit: core ${core.bytes} B on the wire; widget files ${first.reduce((n, t) => n + t.bytes, 0)} B in ${first.length} files`,
    )

    const repeat = await visit()
    expect(repeat.length).toBeGreaterThan(0)
    expect(repeat.filter((transfer) => !transfer.fromCache).map((transfer) => transfer.url)).toEqual([])
  })
})

describe('a part of the widget that cannot load', () => {
  it("the chat's views: the visitor reads that the service cannot be reached, the page gets the log", async () => {
    const { service } = suite
    const page = await suite.newPage()
    await page.route(/\/flow-chat-ui-[0-9a-f]{8}\.mjs$/, (route) => route.abort('connectionfailed'))
    const logs: unknown[] = []
    await page.exposeFunction('__log', (detail: unknown) => logs.push(detail))
    await page.addInitScript(() =>
      document.addEventListener('flowchat:log', (event) =>
        (window as unknown as { __log(d: unknown): void }).__log((event as CustomEvent).detail),
      ),
    )
    const found = pageCases({ service, flow: flowOf(service), cdn: cdn.origin }).find((entry) => entry.name === 'inline script tag')!
    await page.goto(
      service.host.serve(
        '/cross-site/no-views',
        `<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Shop</h1>${found.body}</main></body></html>`,
      ),
    )
    await page.locator('flow-chat').getByRole('alert').filter({ hasText: "Can't reach the chat service" }).waitFor()
    await expect.poll(() => logs).toContainEqual(expect.objectContaining({ code: 'chunk-load-failed', status: 'error' }))
    expect(await axeViolations(page)).toEqual([])
  })
})

describe('a part of the widget that arrives late', () => {
  it("the views and the theme's look, slower than the flow and startChat: the first bubble still shows in the theme's colours", async () => {
    const { service } = suite
    const page = await suite.newPage()
    const walk = await adaptPlaywright(page)
    // A phone network's slow request: the views' chunk (the look travels in it) arrives well after the chat could play.
    let started = false
    page.on('response', (response) => {
      if (response.request().method() === 'POST' && response.url().endsWith('/startChat')) started = true
    })
    await page.route(/\/flow-chat-ui-[0-9a-f]{8}\.mjs$/, async (route) => {
      await expect.poll(() => started, { timeout: 10_000 }).toBe(true)
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      await route.continue()
    })
    const found = pageCases({ service, flow: flowOf(service), cdn: cdn.origin }).find((entry) => entry.name === 'inline script tag')!
    await walk.goto(
      service.host.serve(
        '/cross-site/late-look',
        `<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Shop</h1>${found.body}</main></body></html>`,
      ),
    )
    await walkToTheEnd(walk, 'inline', service.origin)
    expect(await axeViolations(page)).toEqual([])
    await expectCleanWalk(walk)
  })
})
