import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { useBrowserSuite } from './helpers/browser-suite'
import { chat } from './helpers/chat-page'
import { TEST_FLOWS_DIR } from './helpers/test-service'

/** Whole conversations with typing emulation, or waits for retries to run out. */
const LONG_TEST_MS = 120_000

const suite = useBrowserSuite([join(TEST_FLOWS_DIR, 'theme-variant.json')], async () => {
  await suite.service.start()
})
let page: Page

/** Opens the flow, remembering the result id the widget reports and every continueChat key. */
async function openFlow() {
  page = await suite.newPage()
  await page.addInitScript(() => {
    document.addEventListener('flowchat:start', (event) => {
      ;(window as { __start?: unknown }).__start = (event as CustomEvent).detail
    })
  })
  const keys: string[] = []
  page.on('request', (request) => {
    if (request.url().endsWith('/continueChat')) keys.push(request.headers()['idempotency-key'] ?? '')
  })
  await page.goto(suite.service.pageUrl(suite.service.flows['theme-variant.json']!))
  const c = chat(page)
  await c.host('Favourite color?').waitFor()
  const { resultId } = (await page.evaluate(() => (window as { __start?: { resultId: string } }).__start))!
  return { c, keys, resultId }
}

const storedAnswers = async (resultId: string) => (await suite.service.store().results.listAnswers(resultId)).map((answer) => answer.value)

describe('the suite.service going away mid-conversation', () => {
  it(
    'delivers the pending answer by itself when the suite.service is back within the retries',
    async () => {
      const { c, keys, resultId } = await openFlow()
      await suite.service.stop()
      await c.say('blue')
      await expect.poll(() => keys.length).toBeGreaterThan(0)
      await suite.service.start()
      await c.host('Favourite food?').waitFor({ timeout: 15_000 })
      expect(await c.guestBubbles.allTextContents()).toEqual(['blue'])
      expect(await c.root.locator('[part~="host-bubble"]', { hasText: 'Favourite food?' }).count()).toBe(1)
      expect(new Set(keys).size).toBe(1)
      expect(await storedAnswers(resultId)).toEqual(['blue'])
    },
    LONG_TEST_MS,
  )

  it(
    'keeps the answer with a Retry control when retries are spent, then sends it exactly once',
    async () => {
      const { c, keys, resultId } = await openFlow()
      await suite.service.stop()
      await c.say('green')
      await c.root.getByRole('alert').filter({ hasText: 'Not sent' }).waitFor({ timeout: 20_000 })
      expect(await c.guestBubbles.allTextContents()).toEqual(['green'])
      await suite.service.start()
      await c.button('Retry').click()
      await c.host('Favourite food?').waitFor()
      expect(await c.root.getByRole('alert').count()).toBe(0)
      expect(await c.guestBubbles.allTextContents()).toEqual(['green'])
      expect(keys.length).toBeGreaterThan(1)
      expect(new Set(keys).size).toBe(1)
      expect(await storedAnswers(resultId)).toEqual(['green'])
    },
    LONG_TEST_MS,
  )
})
