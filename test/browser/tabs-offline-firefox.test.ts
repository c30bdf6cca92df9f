import { join } from 'node:path'
import type { Page } from 'puppeteer-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type LaunchedFirefox, launchFirefox } from './helpers/firefox'
import { startTestService, TEST_FLOWS_DIR, type TestService } from './helpers/test-service'
import { adaptPuppeteer, type WalkPage } from './helpers/walk'

/**
 * Tabs in step and answers given offline (tabs-offline.test.ts) in a second engine: Debian's
 * Firefox ESR over WebDriver BiDi, its BroadcastChannel, storage and `online` event.
 */
const LONG_TEST_MS = 90_000
const FLOW = 'remember-user.json'
let service: TestService
let firefox: LaunchedFirefox
const pages: Page[] = []

beforeAll(async () => {
  service = await startTestService([join(TEST_FLOWS_DIR, FLOW)])
  firefox = await launchFirefox()
})
afterEach(async () => {
  for (const page of pages.splice(0)) if (!page.isClosed()) await page.close()
  const cleaner = await firefox.browser.newPage()
  await cleaner.goto(`${service.host.origin}/test/host.css`)
  await cleaner.evaluate(() => localStorage.clear())
  await cleaner.close()
})
afterAll(async () => {
  await firefox?.close()
  await service?.close()
})

interface Tab {
  page: Page
  walk: WalkPage
  continued: string[]
  say(text: string): Promise<void>
  host(text: string): Promise<void>
  guests(): Promise<string[]>
}

/** One tab of the host page (another site than the service) of the flow remembered in local storage. */
async function openTab(): Promise<Tab> {
  const page = await firefox.browser.newPage()
  pages.push(page)
  const continued: string[] = []
  page.on('request', (request) => {
    if (request.url().endsWith('/continueChat') && request.method() === 'POST') continued.push(request.headers()['idempotency-key'] ?? '')
  })
  const walk = await adaptPuppeteer(page)
  await walk.goto(service.pageUrl(service.flows[FLOW]!))
  return {
    page,
    walk,
    continued,
    async say(text) {
      const field = page.locator('flow-chat >>> [part~="input"]')
      await field.fill(text)
      await page.keyboard.press('Enter')
    },
    host: (text) => walk.waitFor('[part~="host-bubble"]', text),
    guests: () =>
      page.evaluate(() =>
        [...(document.querySelector('flow-chat')?.shadowRoot?.querySelectorAll('[part~="guest-bubble"]') ?? [])].map((node) =>
          node.textContent?.trim(),
        ),
      ) as Promise<string[]>,
  }
}

const answersOf = async (tab: Tab) => {
  const resultId = await tab.walk.evaluate<string>('JSON.parse(localStorage.getItem(Object.keys(localStorage)[0])).resultId')
  return (await service.store().results.listAnswers(resultId)).map((answer) => answer.value)
}

describe('tabs and offline answers, in Firefox', () => {
  it(
    "two tabs answer in turn and each shows the other's, once each; a tab closed during two steps catches up",
    async () => {
      const a = await openTab()
      await a.host('What is your name?')
      const b = await openTab()
      await b.host('What is your name?')
      await a.say('Ada')
      await b.host('Favourite color?')
      expect(await b.guests()).toEqual(['Ada'])
      await b.say('blue')
      await a.host('Favourite food?')
      expect(await a.guests()).toEqual(['Ada', 'blue'])
      expect(await answersOf(a)).toEqual(['Ada', 'blue'])
      expect([a.continued.length, b.continued.length]).toEqual([1, 1])

      await b.page.close()
      await a.say('soup')
      await a.host('Thanks Ada: blue and soup noted.')
      const again = await openTab()
      await again.host('Thanks Ada: blue and soup noted.')
      expect(await again.guests()).toEqual(['Ada', 'blue', 'soup'])
      expect(await answersOf(a)).toEqual(['Ada', 'blue', 'soup'])
      expect(again.continued).toEqual([])
    },
    LONG_TEST_MS,
  )

  it(
    'an answer given offline waits for the network, said politely, and is recorded once when the browser is back online',
    async () => {
      const tab = await openTab()
      await tab.host('What is your name?')
      await tab.page.setOfflineMode(true)
      await tab.say('Ada')
      await tab.walk.waitFor('[part="answer-status"][role="status"]', /Waiting for the network/)
      expect(
        await tab.walk.evaluate<number>(`document.querySelector('flow-chat').shadowRoot.querySelectorAll('[role="alert"]').length`),
      ).toBe(0)
      await tab.page.setOfflineMode(false)
      await tab.host('Favourite color?')
      expect(await answersOf(tab)).toEqual(['Ada'])
      expect(new Set(tab.continued).size).toBe(1)
      const record = await tab.walk.record()
      expect(record.events).toContain('flowchat:answer')
      expect(record.errors).toEqual([])
    },
    LONG_TEST_MS,
  )
})
