import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { useBrowserSuite } from './helpers/browser-suite'
import { axeViolations, chat, trackErrors } from './helpers/chat-page'
import { TEST_FLOWS_DIR } from './helpers/test-service'

/**
 * A visitor on the keyboard alone, with a screen reader listening to the live region: each step
 * brings eleven host messages, with typing emulation off (all at once) and on (one by one).
 */
const suite = useBrowserSuite([join(TEST_FLOWS_DIR, 'eleven-messages.json'), join(TEST_FLOWS_DIR, 'eleven-messages-typing.json')])

const round = (text: (i: number) => string) => Array.from({ length: 11 }, (_, i) => text(i + 1))

/**
 * Records, from the first script on, every node added to the chat's live region (what a screen
 * reader hears) and every moment focus sits on the page's <body> once it has been in the chat.
 */
async function observe(page: Page) {
  await page.addInitScript(() => {
    const seen = { heard: [] as string[], lostFocus: 0, inChat: false }
    ;(window as unknown as { __seen: typeof seen }).__seen = seen
    const watchRegion = () => {
      const region = document.querySelector('flow-chat')?.shadowRoot?.querySelector('[part~="live-region"]')
      if (!region) return requestAnimationFrame(watchRegion)
      new MutationObserver((records) => {
        for (const record of records) for (const node of Array.from(record.addedNodes)) seen.heard.push(node.textContent ?? '')
      }).observe(region, { childList: true })
    }
    requestAnimationFrame(watchRegion)
    const watchFocus = () => {
      const active = document.activeElement
      if (active?.localName === 'flow-chat') seen.inChat = true
      else if (seen.inChat && (active === document.body || active === null)) seen.lostFocus++
      requestAnimationFrame(watchFocus)
    }
    requestAnimationFrame(watchFocus)
  })
  return () => page.evaluate(() => (window as unknown as { __seen: { heard: string[]; lostFocus: number } }).__seen)
}

const focusedPart = (page: Page) =>
  page.evaluate(() => document.querySelector('flow-chat')?.shadowRoot?.activeElement?.getAttribute('part') ?? null)

for (const [file, typing] of [
  ['eleven-messages.json', 'off'],
  ['eleven-messages-typing.json', 'on'],
] as const) {
  describe(`keyboard and screen reader, typing emulation ${typing}`, () => {
    it('keeps focus in the chat through every answer, moves it to each new input, and announces every message once, in order', async () => {
      const page = await suite.newPage()
      const errors = trackErrors(page)
      const seen = await observe(page)
      await page.goto(suite.service.pageUrl(suite.service.flows[file]!))
      const c = chat(page)
      await c.host('Message 11').waitFor()

      // Into the chat by keyboard: the transcript, then the field.
      for (let presses = 0; presses < 5 && (await focusedPart(page)) !== 'input'; presses++) await page.keyboard.press('Tab')
      expect(await focusedPart(page)).toBe('input')

      for (const answer of ['blue', 'green']) {
        await page.keyboard.type(answer)
        await page.keyboard.press('Enter')
        await c.host(`Again 11, after ${answer}`).waitFor()
        await expect.poll(() => focusedPart(page)).toBe('input')
      }

      const { heard, lostFocus } = await seen()
      expect(lostFocus).toBe(0)
      expect(heard).toEqual([
        ...round((i) => `Message ${i}`),
        ...round((i) => `Again ${i}, after blue`),
        ...round((i) => `Again ${i}, after green`),
      ])
      expect(await axeViolations(page)).toEqual([])
      expect(errors).toEqual([])
    })
  })
}
