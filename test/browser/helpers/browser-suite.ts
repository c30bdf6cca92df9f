import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll } from 'vitest'
import type { ServiceConfig } from '../../../src/service/config'
import { type LaunchedBrowser, launchChromium } from './chromium'
import { startTestService, type TestService } from './test-service'

export interface BrowserSuite {
  /** The reference service of this test file, with its flows published. */
  readonly service: TestService
  readonly chromium: LaunchedBrowser
  /** A fresh page in the shared browser context, closed after the test that opened it. */
  newPage(): Promise<Page>
}

/**
 * The setup every browser test file shares: one reference service (with `flowFiles` imported and
 * published) and one Chromium for the file, pages closed after each test, everything released
 * after the last. `afterEachTest` runs after the pages are closed (e.g. to clear storage).
 */
export function useBrowserSuite(
  flowFiles: string[] | (() => string[] | Promise<string[]>),
  afterEachTest?: (suite: BrowserSuite) => Promise<void>,
  /** Service settings of this file (an AI provider, say), evaluated before the service starts. */
  config?: () => Partial<ServiceConfig>,
): BrowserSuite {
  let service: TestService | undefined
  let chromium: LaunchedBrowser | undefined
  const pages: Page[] = []
  const required = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the browser suite's ${what} is not ready: use it inside a test or hook`)
    return value
  }
  const suite: BrowserSuite = {
    get service() {
      return required(service, 'service')
    },
    get chromium() {
      return required(chromium, 'browser')
    },
    async newPage() {
      const page = await suite.chromium.context.newPage()
      pages.push(page)
      return page
    },
  }

  beforeAll(async () => {
    service = await startTestService(typeof flowFiles === 'function' ? await flowFiles() : flowFiles, config?.())
    chromium = await launchChromium()
  })
  afterAll(async () => {
    await chromium?.close()
    await service?.close()
  })
  afterEach(async () => {
    for (const page of pages.splice(0)) await page.close()
    await afterEachTest?.(suite)
  })
  return suite
}
