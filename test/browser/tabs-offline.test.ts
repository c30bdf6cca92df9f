import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { useBrowserSuite } from './helpers/browser-suite'
import { axeViolations, chat, trackErrors } from './helpers/chat-page'
import { TEST_FLOWS_DIR } from './helpers/test-service'

/** Conversations with retries' backoff and offline periods in them. */
const LONG_TEST_MS = 90_000

const suite = useBrowserSuite([join(TEST_FLOWS_DIR, 'remember-user.json')], async (done) => {
  await done.chromium.context.setOffline(false)
  // The browser context is shared: the next test must not resume this one's conversation.
  const cleaner = await done.newPage()
  await cleaner.goto(`${done.service.host.origin}/test/host.css`)
  await cleaner.evaluate(() => localStorage.clear())
  await cleaner.close()
})

/** One tab of the host page (another site than the service) of the flow that remembers users, in local storage. */
async function openTab(options: { deaf?: boolean } = {}) {
  const page = await suite.newPage()
  await page.addInitScript((deaf) => {
    const seen: { starts: Array<{ resultId: string; resumed: boolean }>; logs: string[] } = { starts: [], logs: [] }
    ;(window as unknown as { __seen?: typeof seen }).__seen = seen
    document.addEventListener('flowchat:start', (event) => seen.starts.push((event as CustomEvent).detail))
    document.addEventListener('flowchat:log', (event) => seen.logs.push((event as CustomEvent<{ code: string }>).detail.code))
    // A tab that hears nothing of the others (a tab the browser froze in the background, say).
    if (deaf) {
      ;(window as unknown as { BroadcastChannel: unknown }).BroadcastChannel = class {
        onmessage = null
        postMessage() {}
        close() {}
      }
    }
  }, options.deaf === true)
  const errors = trackErrors(page)
  const continued: Array<{ key: string; body: string }> = []
  page.on('request', (request) => {
    if (request.url().endsWith('/continueChat'))
      continued.push({ key: request.headers()['idempotency-key'] ?? '', body: request.postData() ?? '' })
  })
  await page.goto(suite.service.pageUrl(suite.service.flows['remember-user.json']!))
  const seen = () => page.evaluate(() => (window as unknown as { __seen: { starts: Array<{ resultId: string }>; logs: string[] } }).__seen)
  return { page, c: chat(page), errors, continued, seen }
}

const answers = async (resultId: string) => (await suite.service.store().results.listAnswers(resultId)).map((answer) => answer.value)
const resultOf = async (tab: { seen(): Promise<{ starts: Array<{ resultId: string }> }> }) => (await tab.seen()).starts[0]!.resultId
const inputPlaceholder = (page: Page) => chat(page).input.getAttribute('placeholder')

describe('one remembered conversation in two tabs', () => {
  it(
    "two tabs answer in turn, each shows the other's answers and steps, and each step is recorded once",
    async () => {
      const a = await openTab()
      await a.c.host('What is your name?').waitFor()
      const b = await openTab()
      await b.c.host('What is your name?').waitFor()
      const resultId = await resultOf(a)
      expect(await resultOf(b)).toBe(resultId)

      await a.c.say('Ada')
      await b.c.host('Favourite color?').waitFor()
      expect(await b.c.guestBubbles.allTextContents()).toEqual(['Ada'])
      await b.c.say('blue')
      await a.c.host('Favourite food?').waitFor()
      expect(await a.c.guestBubbles.allTextContents()).toEqual(['Ada', 'blue'])
      await a.c.say('pasta')
      await b.c.host('Thanks Ada: blue and pasta noted.').waitFor()
      expect(await b.c.guestBubbles.allTextContents()).toEqual(['Ada', 'blue', 'pasta'])
      expect(await b.c.root.locator('[part~="input"]').count()).toBe(0)

      expect(await answers(resultId)).toEqual(['Ada', 'blue', 'pasta'])
      // Each answer left from the tab that gave it, once, under a key of its own.
      expect(a.continued).toHaveLength(2)
      expect(b.continued).toHaveLength(1)
      expect(new Set([...a.continued, ...b.continued].map((request) => request.key)).size).toBe(3)
      expect(await axeViolations(a.page)).toEqual([])
      expect(await axeViolations(b.page)).toEqual([])
      expect([...a.errors, ...b.errors]).toEqual([])
    },
    LONG_TEST_MS,
  )

  it(
    'a tab that missed a step cannot answer it again: it shows the answer kept and the next step instead, sending nothing',
    async () => {
      const a = await openTab()
      await a.c.host('What is your name?').waitFor()
      const stale = await openTab({ deaf: true })
      await stale.c.host('What is your name?').waitFor()
      await a.c.say('Ada')
      await a.c.host('Favourite color?').waitFor()
      // The deaf tab still offers the name; answering it finds the newer record, which it shows.
      await stale.c.say('Grace')
      await stale.c.host('Favourite color?').waitFor()
      expect(await stale.c.guestBubbles.allTextContents()).toEqual(['Ada'])
      expect(await inputPlaceholder(stale.page)).toBe(await inputPlaceholder(a.page))
      expect(stale.continued).toEqual([])
      expect((await stale.seen()).logs).toContain('answered-in-another-tab')
      expect(await answers(await resultOf(a))).toEqual(['Ada'])
      expect(await axeViolations(stale.page)).toEqual([])
    },
    LONG_TEST_MS,
  )

  it(
    'a tab closed during two steps catches up when it is opened again',
    async () => {
      const a = await openTab()
      await a.c.host('What is your name?').waitFor()
      const b = await openTab()
      await b.c.host('What is your name?').waitFor()
      await b.page.close()
      await a.c.say('Ada')
      await a.c.host('Favourite color?').waitFor()
      await a.c.say('blue')
      await a.c.host('Favourite food?').waitFor()

      const again = await openTab()
      await again.c.host('Favourite food?').waitFor()
      expect(await again.c.guestBubbles.allTextContents()).toEqual(['Ada', 'blue'])
      await again.c.say('soup')
      await a.c.host('Thanks Ada: blue and soup noted.').waitFor()
      expect(await answers(await resultOf(a))).toEqual(['Ada', 'blue', 'soup'])
      expect(again.continued).toHaveLength(1)
    },
    LONG_TEST_MS,
  )
})

/**
 * Serves the page from the test's own process (`route.fetch` is not the browser's network), as a
 * browser's cache would while it is offline, so a reload can show it; answers (continueChat) meet
 * the browser's own state: refused while it is offline, fetched for it once it is online.
 */
async function cachedWhileOffline(page: Page, offline: () => boolean) {
  await page.route('**/*', async (route) => {
    if (offline() && route.request().url().endsWith('/continueChat')) return route.abort('internetdisconnected')
    return route.fulfill({ response: await route.fetch() })
  })
}

describe('an answer given offline', () => {
  it(
    'waits for the network (announced, not an error), survives a reload, and is recorded once when the browser is back online',
    async () => {
      const tab = await openTab()
      const { page, c } = tab
      await c.host('What is your name?').waitFor()
      let offline = true
      await cachedWhileOffline(page, () => offline)
      await suite.chromium.context.setOffline(true)
      await c.say('Ada')
      const waiting = c.root.locator('[part="answer-status"][role="status"]')
      await expect.poll(() => waiting.textContent()).toMatch(/Waiting for the network/)
      expect(await c.root.locator('[role="alert"]').count()).toBe(0)
      // The next step needs the service: no input meanwhile.
      expect(await c.root.locator('[part~="input"]').count()).toBe(0)
      expect((await tab.seen()).logs).toContain('waiting-for-network')
      expect(await axeViolations(page)).toEqual([])

      await page.reload()
      await expect.poll(() => c.root.locator('[part="answer-status"][role="status"]').textContent()).toMatch(/Waiting for the network/)
      expect(await c.guestBubbles.allTextContents()).toEqual(['Ada'])
      offline = false
      await suite.chromium.context.setOffline(false)
      await c.host('Favourite color?').waitFor()
      expect(await c.root.locator('[part="answer-status"]').count()).toBe(0)
      const resultId = await resultOf(tab)
      expect(await answers(resultId)).toEqual(['Ada'])
      // Whatever left before the network went, every attempt carried the one key.
      expect(new Set(tab.continued.map((request) => request.key)).size).toBe(1)
      expect(tab.errors.filter((error) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch|NetworkError/.test(error))).toEqual([])
    },
    LONG_TEST_MS,
  )
})

/**
 * A lossy network between the browser and the service, for answers: by how often a key was tried,
 * its request is dropped before the service (1st try), or its response after the service applied
 * it (2nd), and goes through on the 3rd; every other answer meets no loss.
 */
async function lossyAnswers(page: Page, tries: Map<string, number>) {
  let answersSeen = 0
  const lossy = new Set<string>()
  await page.route('**/continueChat', async (route) => {
    const key = route.request().headers()['idempotency-key'] ?? ''
    const n = (tries.get(key) ?? 0) + 1
    tries.set(key, n)
    if (n === 1 && answersSeen++ % 2 === 0) lossy.add(key)
    if (!lossy.has(key) || n >= 3) return route.continue()
    if (n === 1) return route.abort('connectionreset')
    await route.fetch()
    return route.abort('connectionreset')
  })
}

describe('faults: a lossy network with two tabs and an offline period', () => {
  it(
    'loses no answer and records none twice',
    async () => {
      const tries = new Map<string, number>()
      const a = await openTab()
      await lossyAnswers(a.page, tries)
      await a.c.host('What is your name?').waitFor()
      const b = await openTab()
      await lossyAnswers(b.page, tries)
      await b.c.host('What is your name?').waitFor()

      await a.c.say('Ada')
      await b.c.host('Favourite color?').waitFor({ timeout: 30_000 })
      await suite.chromium.context.setOffline(true)
      await b.c.say('green')
      await expect.poll(() => b.c.root.locator('[part="answer-status"][role="status"]').count()).toBe(1)
      await suite.chromium.context.setOffline(false)
      await a.c.host('Favourite food?').waitFor({ timeout: 30_000 })
      await a.c.say('rice')
      await b.c.host('Thanks Ada: green and rice noted.').waitFor({ timeout: 30_000 })
      await a.c.host('Thanks Ada: green and rice noted.').waitFor()

      expect(await answers(await resultOf(a))).toEqual(['Ada', 'green', 'rice'])
      // Some keys really were lost on the way there or back, and sent again.
      expect([...tries.values()].some((n) => n >= 3)).toBe(true)
    },
    LONG_TEST_MS,
  )
})
