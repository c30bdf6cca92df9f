import { join } from 'node:path'
import type { Page } from 'puppeteer-core'
import { afterAll, afterEach, beforeAll, describe, it } from 'vitest'
import { CROSS_SITE_FLOW, expectCleanWalk, type PageCase, pageCases, walkToTheEnd } from './embed/cross-site-walk'
import { type LaunchedFirefox, launchFirefox } from './helpers/firefox'
import { startTestService, TEST_FLOWS_DIR, type TestService } from './helpers/test-service'
import { adaptPuppeteer, type WalkPage } from './helpers/walk'

/**
 * The cross-site walk of cross-site.test.ts in a second engine: Debian's Firefox ESR over WebDriver
 * BiDi (puppeteer-core). Visitors use more than one engine; what Chromium tolerates (module
 * loading, CORS, shadow DOM, dialogs, constructable stylesheets) Firefox may not.
 */
let service: TestService
let firefox: LaunchedFirefox
const pages: Page[] = []

beforeAll(async () => {
  service = await startTestService([join(TEST_FLOWS_DIR, CROSS_SITE_FLOW)])
  firefox = await launchFirefox()
})
afterEach(async () => {
  for (const page of pages.splice(0)) await page.close()
})
afterAll(async () => {
  await firefox?.close()
  await service?.close()
})

async function open(url: string): Promise<WalkPage> {
  const page = await firefox.browser.newPage()
  pages.push(page)
  const walk = await adaptPuppeteer(page)
  await walk.goto(url)
  return walk
}

const page = (name: string, { body }: Pick<PageCase, 'body'>, csp?: string) =>
  service.host.serve(`/firefox/${encodeURIComponent(name)}`, {
    headers: csp ? { 'Content-Security-Policy': csp } : {},
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title></head><body><main><h1>A shop</h1>${body}</main></body></html>`,
  })

describe('every way to embed, from another site, in Firefox', () => {
  const cases = () => pageCases({ service, flow: service.flows[CROSS_SITE_FLOW]!, cdn: 'http://cdn.invalid' })
  for (const name of [
    'inline script tag',
    'bubble',
    'popup',
    'launcher element',
    'module build',
    'crossorigin script',
    'old /dist/ path',
  ]) {
    it(name, async () => {
      const found = cases().find((entry) => entry.name === name)!
      const walk = await open(page(name, found))
      await walkToTheEnd(walk, found.mode, service.origin)
      await expectCleanWalk(walk)
    })
  }

  it("inline script tag, under a CSP that names only the widget's origin", async () => {
    const found = cases().find((entry) => entry.name === 'inline script tag')!
    const csp = `default-src 'none'; script-src ${service.origin}; connect-src ${service.origin}; img-src ${service.origin}; frame-src ${service.origin}`
    const walk = await open(page('strict', found, csp))
    await walkToTheEnd(walk, 'inline', service.origin)
    await expectCleanWalk(walk)
  })

  it('the full-page share link', async () => {
    const walk = await open(`${service.origin}/${service.flows[CROSS_SITE_FLOW]!.publicId}`)
    await walkToTheEnd(walk, 'inline', service.origin)
    await expectCleanWalk(walk)
  })
})
