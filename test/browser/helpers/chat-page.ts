import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { REPO_ROOT } from './test-service'

/** The test's own servers (the flow service and the host site), whatever their ports. */
const LOOPBACK = /^https?:\/\/(?:127\.0\.0\.1|localhost)(?::\d+)?\//

/** Console errors and uncaught exceptions of a page, for "no errors" assertions. */
export function trackErrors(page: Page) {
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`))
  page.on('console', (message) => {
    if (message.type() !== 'error') return
    const source = message.location().url
    // This machine has no internet: a flow's CDN images and fonts fail to load. That is the
    // environment, not the widget; failures on the test's own servers still count.
    if (message.text().startsWith('Failed to load resource') && source && !LOOPBACK.test(source)) return
    errors.push(`${message.text()} (${source})`)
  })
  return errors
}

/** Locators for the widget; Playwright's CSS and role engines pierce its open shadow root. */
export function chat(page: Page) {
  const root = page.locator('flow-chat')
  const transcript = root.getByRole('region', { name: 'Chat' })
  return {
    root,
    transcript,
    hostBubbles: root.locator('[part~="host-bubble"]:not([part~="typing"])'),
    guestBubbles: root.locator('[part~="guest-bubble"]'),
    input: root.locator('[part~="input"]').first(),
    button: (name: string | RegExp) => root.getByRole('button', { name, exact: typeof name === 'string' }),
    /** Waits for a host bubble containing `text`. */
    host: (text: string | RegExp): Locator => root.locator('[part~="host-bubble"]', { hasText: text }).last(),
    async say(text: string) {
      const field = root.locator('[part~="input"]').first()
      await field.fill(text)
      await field.press('Enter')
    },
    async choose(name: string | RegExp) {
      await root.getByRole('button', { name, exact: typeof name === 'string' }).click()
    },
  }
}

// Read when this module loads: fails early and clearly when axe-core is missing.
const AXE_SOURCE = readFileSync(join(REPO_ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8')

/** Runs axe-core in the page and answers its violations as lines (an expression both drivers evaluate). */
const AXE_RUN = `(async () => {
  const result = await window.axe.run(document, { resultTypes: ['violations'] })
  return result.violations.map((v) => v.id + ': ' + v.help + ' at ' + JSON.stringify(v.nodes.map((n) => n.target)))
})()`

/** A page of either driver: playwright-core's (Chromium) or puppeteer-core's (Firefox). */
interface Evaluating {
  evaluate(expression: string): Promise<unknown>
}

/**
 * Runs axe-core and returns its violations. axe is evaluated by the driver (as devtools would),
 * so the host page's CSP need not allow it and the page loads nothing it would not load anyway.
 */
export async function axeViolations(page: Page | Evaluating): Promise<string[]> {
  const driven = page as Evaluating
  if (!(await driven.evaluate("typeof window.axe !== 'undefined'"))) await driven.evaluate(AXE_SOURCE)
  return (await driven.evaluate(AXE_RUN)) as string[]
}
