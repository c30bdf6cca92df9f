import { join } from 'node:path'
import type { Page, Route } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { useBrowserSuite } from './helpers/browser-suite'
import { axeViolations, chat, trackErrors } from './helpers/chat-page'
import { TEST_FLOWS_DIR } from './helpers/test-service'

const FLOW = 'image-layout.json'
const IMAGE_PATH = '/test/held/view.svg'
const ALT = 'Mountains at dawn'
/** A picture with an intrinsic size, so its bubble has a definite height once it has loaded. */
const PICTURE = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="270" viewBox="0 0 480 270">
<rect width="480" height="270" fill="#87a8d0"/><path d="M0 270 L150 90 L260 200 L350 120 L480 270 Z" fill="#3b4a5a"/></svg>`

const suite = useBrowserSuite([join(TEST_FLOWS_DIR, FLOW)])
let page: Page

interface Shift {
  value: number
  startTime: number
}

/** A picture the test holds back: `requested` settles once the widget asks for it. */
interface HeldImage {
  requested: Promise<void>
  /** Answers the request (now, or as soon as it comes). */
  answer(reply: (route: Route) => Promise<void>): void
}

async function holdImage(path: string): Promise<HeldImage> {
  let markRequested: () => void = () => {}
  const requested = new Promise<void>((resolve) => (markRequested = resolve))
  let answer: HeldImage['answer'] = () => {}
  const answered = new Promise<(route: Route) => Promise<void>>((resolve) => (answer = resolve))
  await page.route(`**${path}`, async (route) => {
    markRequested()
    await (await answered)(route)
  })
  return { requested, answer }
}

const sendPicture = (route: Route) => route.fulfill({ status: 200, contentType: 'image/svg+xml', body: PICTURE })

/**
 * Opens the flow with its first picture held back by the test. Every layout shift on the page is
 * recorded from the start (the widget is the only thing on it that changes).
 */
async function openWithHeldImage() {
  page = await suite.newPage()
  await page.addInitScript(() => {
    const shifts: Array<{ value: number; startTime: number }> = []
    const record = (entries: PerformanceEntryList) => {
      for (const entry of entries) shifts.push({ value: (entry as unknown as { value: number }).value, startTime: entry.startTime })
    }
    const observer = new PerformanceObserver((list) => record(list.getEntries()))
    observer.observe({ type: 'layout-shift', buffered: true })
    Object.assign(window, {
      __layoutShifts: () => {
        record(observer.takeRecords())
        return shifts
      },
    })
  })
  const held = await holdImage(IMAGE_PATH)
  const errors = trackErrors(page)
  await page.goto(suite.service.pageUrl(suite.service.flows[FLOW]!))
  return { c: chat(page), errors, ...held }
}

/** Layout shifts since `since` (a `performance.now()` time), once two more frames have painted. */
async function shiftsSince(since: number): Promise<Shift[]> {
  return page.evaluate(async (after) => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
    const all = (window as unknown as { __layoutShifts(): Array<{ value: number; startTime: number }> }).__layoutShifts()
    return all.filter((shift) => shift.startTime >= after)
  }, since)
}

const liveText = (c: ReturnType<typeof chat>) => c.root.locator('[part~="live-region"]').textContent()

describe('an image bubble in Chromium', () => {
  it('stays out of sight while its picture loads, then appears at its final size without shifting anything', async () => {
    const { c, errors, requested, answer } = await openWithHeldImage()
    await c.host('Here is the view from our office:').waitFor()
    // The picture is fetched while its bubble is hidden (a lazy image never would be).
    await requested
    const image = c.root.locator(`img[alt="${ALT}"]`)
    const after = c.host('Lovely, isn')
    await after.waitFor({ state: 'attached' })
    expect(await image.isVisible()).toBe(false)
    // What follows the picture waits for it, so nothing below it moves when it appears.
    expect(await after.isVisible()).toBe(false)
    expect(await c.root.locator('[part~="input-row"]').isVisible()).toBe(false)
    expect(await c.root.locator('[part~="typing"]').isVisible()).toBe(true)
    expect(await liveText(c)).not.toContain(ALT)
    expect(await axeViolations(page)).toEqual([])

    const before = await page.evaluate(() => performance.now())
    answer(sendPicture)
    await image.waitFor({ state: 'visible' })
    await after.waitFor({ state: 'visible' })
    await c.input.waitFor({ state: 'visible' })
    expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
    expect(await image.evaluate((img: HTMLImageElement) => img.getBoundingClientRect().height)).toBeGreaterThan(0)
    expect(await c.root.locator('[part~="typing"]').count()).toBe(0)

    const shifts = await shiftsSince(before)
    expect(shifts.reduce((sum, shift) => sum + shift.value, 0)).toBe(0)
    // Announced once, by its alt text, now that it can be seen.
    expect((await liveText(c))?.split(ALT).length).toBe(2)
    expect(await axeViolations(page)).toEqual([])

    // After an answer the next input takes focus, even when a picture keeps it hidden at first.
    const second = await holdImage('/test/held/second.svg')
    await c.say('Lisbon')
    await second.requested
    const field = c.root.getByRole('textbox', { name: 'Another place' })
    await c.root.locator('input[placeholder="Another place"]').waitFor({ state: 'attached' })
    expect(await field.isVisible()).toBe(false)
    second.answer(sendPicture)
    await c.root.locator('img[alt="Valley at noon"]').waitFor({ state: 'visible' })
    await expect.poll(() => field.evaluate((input) => (input.getRootNode() as ShadowRoot).activeElement === input)).toBe(true)
    expect(errors).toEqual([])
  })

  it('shows a picture that fails to load as unavailable, by its alt text, also without shifting anything', async () => {
    const { c, errors, requested, answer } = await openWithHeldImage()
    await c.host('Here is the view from our office:').waitFor()
    await requested
    const after = c.host('Lovely, isn')
    await after.waitFor({ state: 'attached' })
    expect(await after.isVisible()).toBe(false)

    const before = await page.evaluate(() => performance.now())
    answer((route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'gone' }))
    await after.waitFor({ state: 'visible' })
    const broken = c.root.locator('.media[part~="host-bubble"]')
    expect(await broken.textContent()).toContain(ALT)
    expect(await broken.locator('img').count()).toBe(0)
    expect((await shiftsSince(before)).reduce((sum, shift) => sum + shift.value, 0)).toBe(0)
    expect(await axeViolations(page)).toEqual([])
    // The one failure is the 404 this test answered with.
    expect(errors.filter((error) => !error.includes('404'))).toEqual([])
  })
})
