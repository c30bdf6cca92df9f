import type { Page as PlaywrightPage } from 'playwright-core'
import type { Page as PuppeteerPage } from 'puppeteer-core'

/**
 * A visitor's walk through a page, written once for every browser engine the tests drive:
 * Chromium through playwright-core and Firefox through puppeteer-core (WebDriver BiDi). Elements
 * are found through open shadow roots by CSS selector and text, then clicked with the driver's
 * real input; the page's `flowchat:*` events and failed requests are recorded from its first load.
 */

/** What a walk needs of a page; `adaptPlaywright` / `adaptPuppeteer` make one. */
export interface WalkPage {
  goto(url: string): Promise<void>
  /** Waits until an element matching `selector` (through shadow roots) shows `text`, if given. */
  waitFor(selector: string, text?: string | RegExp): Promise<void>
  /** Clicks it, as a visitor would (after waiting for it). */
  click(selector: string, text?: string | RegExp): Promise<void>
  /** A computed style property of it. */
  style(selector: string, text: string | RegExp | undefined, property: string): Promise<string>
  /** A DOM property of it (`src`, `naturalWidth`). */
  property(selector: string, text: string | RegExp | undefined, name: string): Promise<unknown>
  /** The value of a JavaScript expression in the page (JSON-serialisable). */
  evaluate<T>(expression: string): Promise<T>
  /** What the page went through so far. */
  record(): Promise<WalkRecord>
}

export interface WalkRecord {
  /** `flowchat:*` events the page heard, in order, by type. */
  events: string[]
  /** Details of `flowchat:error` events. */
  errors: unknown[]
  /** Requests to the test's own servers that failed or were answered 4xx/5xx. */
  failedRequests: string[]
  /** Uncaught exceptions and console errors, apart from other hosts' resources this machine cannot reach. */
  consoleErrors: string[]
}

/** Runs in the page: the deepest matching elements of the document and every open shadow root. */
const FIND = `(selector, text, flags) => {
  const pattern = text === null ? null : flags === null ? null : new RegExp(text, flags)
  const matches = (element) => {
    if (text === null) return true
    const content = (element.textContent || '').replace(/\\s+/g, ' ').trim()
    return pattern ? pattern.test(content) : content === text
  }
  const visible = (element) => {
    const box = element.getBoundingClientRect()
    return box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden'
  }
  const roots = [document]
  const found = []
  while (roots.length) {
    const root = roots.shift()
    for (const element of root.querySelectorAll('*')) {
      if (element.shadowRoot) roots.push(element.shadowRoot)
      if (element.matches(selector) && matches(element) && visible(element)) found.push(element)
    }
  }
  return found[found.length - 1] || null
}`

const args = (selector: string, text?: string | RegExp) =>
  [selector, text === undefined ? null : text instanceof RegExp ? text.source : text, text instanceof RegExp ? text.flags : null] as const

/** Runs in the page before anything else: records the widget's events. */
export const RECORD_EVENTS = `(() => {
  const seen = (window.__walk = { events: [], errors: [] })
  for (const type of ['flowchat:ready', 'flowchat:start', 'flowchat:answer', 'flowchat:end', 'flowchat:open', 'flowchat:close', 'flowchat:error', 'flowchat:log']) {
    document.addEventListener(type, (event) => {
      seen.events.push(type)
      if (type === 'flowchat:error') seen.errors.push(event.detail)
      if (type === 'flowchat:log' && event.detail && event.detail.status === 'error') seen.errors.push(event.detail)
    })
  }
})()`

/** The test's own servers: the flow service and the host site, whatever their ports. */
const OWN = /^https?:\/\/(?:127\.0\.0\.1|localhost)(?::\d+)?\//

interface Recorder {
  failedRequests: string[]
  consoleErrors: string[]
}

const recorder = (): Recorder => ({ failedRequests: [], consoleErrors: [] })

const onResponse = (record: Recorder, url: string, status: number) => {
  if (OWN.test(url) && status >= 400) record.failedRequests.push(`${status} ${url}`)
}
const onFailed = (record: Recorder, url: string, reason: string) => {
  if (OWN.test(url)) record.failedRequests.push(`${reason} ${url}`)
}
/**
 * The browser's own request for the page's favicon: refused by a strict page CSP in Firefox,
 * which reports it as a page error. The page's, not the widget's.
 */
const FAVICON = /\/favicon\.ico\b/

const onConsole = (record: Recorder, type: string, text: string) => {
  // This machine has no internet: another host's images or fonts may fail. Our own may not.
  if (type === 'error' && !(/Failed to load resource/.test(text) && !OWN.test(text)) && !FAVICON.test(text)) record.consoleErrors.push(text)
}

/**
 * A page function from its source: both drivers take a function (sent as its source text) with
 * arguments, while a string would be evaluated as an expression without them.
 */
const functionOf = (source: string) => new Function(`return (${source})`)() as (...a: unknown[]) => unknown

/** The page half both adapters share: finding, clicking, reading. */
interface Driven {
  goto(url: string): Promise<unknown>
  waitForFunction(fn: string, ...args: unknown[]): Promise<unknown>
  evaluate(fn: string, ...args: unknown[]): Promise<unknown>
  clickFound(selector: string, text: string | null, flags: string | null): Promise<void>
}

function walkPage(driven: Driven, record: Recorder): WalkPage {
  const waitFor = async (selector: string, text?: string | RegExp) => {
    await driven.waitForFunction(`(...a) => (${FIND})(...a) !== null`, ...args(selector, text))
  }
  return {
    goto: async (url) => void (await driven.goto(url)),
    waitFor,
    async click(selector, text) {
      await waitFor(selector, text)
      await driven.clickFound(...args(selector, text))
    },
    async style(selector, text, property) {
      await waitFor(selector, text)
      return (await driven.evaluate(
        `(p, ...a) => getComputedStyle((${FIND})(...a)).getPropertyValue(p)`,
        property,
        ...args(selector, text),
      )) as string
    },
    async property(selector, text, name) {
      await waitFor(selector, text)
      return driven.evaluate(`(p, ...a) => (${FIND})(...a)[p]`, name, ...args(selector, text))
    },
    evaluate: async <T>(expression: string) => (await driven.evaluate(`() => (${expression})`)) as T,
    async record() {
      const seen = (await driven.evaluate('() => JSON.parse(JSON.stringify(window.__walk))')) as { events: string[]; errors: unknown[] }
      return { ...seen, failedRequests: [...record.failedRequests], consoleErrors: [...record.consoleErrors] }
    },
  }
}

/** A Chromium page of playwright-core. */
export async function adaptPlaywright(page: PlaywrightPage): Promise<WalkPage> {
  const record = recorder()
  await page.addInitScript({ content: RECORD_EVENTS })
  page.on('response', (response) => onResponse(record, response.url(), response.status()))
  page.on('requestfailed', (request) => onFailed(record, request.url(), request.failure()?.errorText ?? 'failed'))
  page.on('console', (message) => onConsole(record, message.type(), `${message.text()} ${message.location().url}`))
  page.on('pageerror', (error) => record.consoleErrors.push(`uncaught: ${error.message}`))
  // Playwright hands a page function one argument: the arguments go as one array, spread in the page.
  const call = (fn: string) => functionOf(`(a) => (${fn})(...a)`) as unknown as string
  return walkPage(
    {
      goto: (url) => page.goto(url),
      waitForFunction: (fn, ...a) => page.waitForFunction(call(fn), a),
      evaluate: (fn, ...a) => page.evaluate(call(fn), a),
      async clickFound(...a) {
        const handle = (await page.evaluateHandle(call(FIND), a)) as unknown as { asElement(): { click(): Promise<void> } }
        await handle.asElement().click()
      },
    },
    record,
  )
}

/** A Firefox page of puppeteer-core. */
export async function adaptPuppeteer(page: PuppeteerPage): Promise<WalkPage> {
  const record = recorder()
  await page.evaluateOnNewDocument(RECORD_EVENTS)
  page.on('response', (response) => onResponse(record, response.url(), response.status()))
  page.on('requestfailed', (request) => onFailed(record, request.url(), request.failure()?.errorText ?? 'failed'))
  page.on('console', (message) => onConsole(record, message.type(), `${message.text()} ${message.location().url ?? ''}`))
  page.on('pageerror', (error) => FAVICON.test(String(error)) || record.consoleErrors.push(`uncaught: ${String(error)}`))
  const fnOf = (fn: string) => functionOf(fn)
  return walkPage(
    {
      goto: (url) => page.goto(url),
      waitForFunction: (fn, ...a) => page.waitForFunction(fnOf(fn) as unknown as string, { polling: 100, timeout: 30_000 }, ...a),
      evaluate: (fn, ...a) => page.evaluate(fnOf(fn) as unknown as string, ...a),
      async clickFound(...a) {
        const handle = (await page.evaluateHandle(fnOf(FIND) as unknown as string, ...a)) as unknown as {
          asElement(): { click(): Promise<void> }
        }
        await handle.asElement().click()
      },
    },
    record,
  )
}
