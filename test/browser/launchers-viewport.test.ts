import { join } from 'node:path'
import { type Browser, type BrowserContext, type CDPSession, type Page, chromium as playwright } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { attributes, openEmbedPage } from './embed/embed-test-pages'
import { trackErrors } from './helpers/chat-page'
import { findChromium, LAUNCH_FLAGS } from './helpers/chromium'
import { type PublishedTestFlow, startTestService, TEST_FLOWS_DIR, type TestService } from './helpers/test-service'

/**
 * A phone whose on-screen keyboard opens over the bubble's chat window. Headless Chromium has no
 * on-screen keyboard, and CDP has no call that shrinks only the visual viewport the way one does
 * (`Emulation.setVisibleSize` changes nothing; `setVirtualKeyboardGeometryOverride` only feeds
 * `navigator.virtualKeyboard` and `env(keyboard-inset-*)`). Two real mechanisms remain:
 * - page scale (`Emulation.setPageScaleFactor`), the pinch zoom of a phone: the visual viewport
 *   shrinks while the layout viewport (and `position: fixed`) stays, exactly as with a keyboard
 *   in Chrome's default `interactive-widget=resizes-visual` and in Safari, and it can be panned
 *   (`visualViewport.offsetTop` > 0) as Safari pans to the focused field;
 * - a smaller device viewport: the keyboard of `interactive-widget=resizes-content` pages, which
 *   shrinks both viewports.
 */
const PHONE = { width: 390, height: 844 }
const SCRIPT = '<script src="{script}" defer></script>'

let service: TestService
let browser: Browser
let context: BrowserContext
let page: Page
let flow: PublishedTestFlow

beforeAll(async () => {
  service = await startTestService([join(TEST_FLOWS_DIR, 'theme-variant.json')])
  flow = service.flows['theme-variant.json']!
  // Mobile emulation (meta viewport, touch, overlay scrollbars) is fixed when a context is made,
  // so this file launches its own browser instead of the shared persistent desktop context.
  browser = await playwright.launch({ executablePath: await findChromium(), headless: true, args: LAUNCH_FLAGS })
  context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 3, reducedMotion: 'reduce' })
})
afterAll(async () => {
  await browser?.close()
  await service?.close()
})
afterEach(async () => {
  await page?.close()
})

interface Box {
  top: number
  bottom: number
}
interface Geometry {
  viewport: Box & { scale: number }
  layoutHeight: number
  window: Box
  input: Box | null
}

/** The visual viewport and, in the layout viewport's coordinates like it, the window and field. */
function geometry(): Promise<Geometry> {
  return page.evaluate(() => {
    const box = (element: Element | null | undefined) => {
      if (!element) return null
      const rect = element.getBoundingClientRect()
      return { top: rect.top, bottom: rect.bottom }
    }
    const bubble = document.querySelector('flow-chat-bubble')!
    const chat = bubble.shadowRoot!.querySelector('flow-chat')
    const viewport = window.visualViewport!
    return {
      viewport: { top: viewport.offsetTop, bottom: viewport.offsetTop + viewport.height, scale: viewport.scale },
      layoutHeight: window.innerHeight,
      window: box(bubble.shadowRoot!.querySelector('[part~="window"]'))!,
      input: box(chat?.shadowRoot?.querySelector('[part~="input"]')),
    }
  })
}

/** Less than a pixel of rounding between the viewport's fractional size and layout. */
const SLACK = 1
const inside = (box: Box | null, viewport: Box) => box !== null && box.top >= viewport.top - SLACK && box.bottom <= viewport.bottom + SLACK

/** Waits until the window fills the visual viewport top to bottom, then returns the geometry. */
async function windowFillsViewport(): Promise<Geometry> {
  const fills = async () => {
    const now = await geometry()
    return Math.abs(now.window.top - now.viewport.top) <= SLACK && Math.abs(now.window.bottom - now.viewport.bottom) <= SLACK
  }
  await expect.poll(fills, { message: 'the chat window spans the visual viewport from top to bottom' }).toBe(true)
  return geometry()
}

function expectVisible(now: Geometry) {
  expect(inside(now.window, now.viewport)).toBe(true)
  expect(now.input).not.toBeNull()
  expect(inside(now.input, now.viewport)).toBe(true)
}

describe('<flow-chat-bubble> on a phone', () => {
  it('keeps the window and its text field inside the visual viewport when a keyboard shrinks it, and restores it after', async () => {
    page = await context.newPage()
    const errors = trackErrors(page)
    const cdp: CDPSession = await context.newCDPSession(page)
    await openEmbedPage(
      page,
      service,
      'bubble-phone',
      `${SCRIPT}<flow-chat-bubble ${attributes({ flow: flow.id, 'api-host': service.origin, token: service.publishableToken, label: 'Phone' })}></flow-chat-bubble>`,
    )
    await page.getByRole('button', { name: 'Open chat: Phone' }).tap()
    const window = page.getByRole('dialog', { name: 'Phone' })
    await window.locator('[part~="host-bubble"]', { hasText: 'Favourite color?' }).waitFor()
    await window.locator('[part~="input"]').first().waitFor()

    const full = await windowFillsViewport()
    expect(full.viewport).toEqual({ top: 0, bottom: PHONE.height, scale: 1 })
    expectVisible(full)

    // Keyboard over half the screen (resizes-visual): only the visual viewport shrinks.
    await cdp.send('Emulation.setPageScaleFactor', { pageScaleFactor: 2 })
    const shrunk = await windowFillsViewport()
    expect(shrunk.layoutHeight).toBe(PHONE.height)
    expect(shrunk.viewport.bottom - shrunk.viewport.top).toBeCloseTo(PHONE.height / 2, 0)
    expectVisible(shrunk)

    // The browser pans the shrunk viewport down the page: the window moves along with it.
    await page.mouse.wheel(0, 200)
    await expect.poll(async () => (await geometry()).viewport.top).toBeGreaterThan(0)
    const panned = await windowFillsViewport()
    expect(panned.window.top).toBeGreaterThan(0)
    expectVisible(panned)

    // Keyboard closed: the window is back to the whole screen.
    await cdp.send('Emulation.setPageScaleFactor', { pageScaleFactor: 1 })
    const restored = await windowFillsViewport()
    expect(restored.viewport).toEqual({ top: 0, bottom: PHONE.height, scale: 1 })
    expect(restored.window).toEqual(full.window)
    expectVisible(restored)
    expect(errors).toEqual([])
  })

  it('fits a keyboard that resizes the whole page (interactive-widget=resizes-content) and grows back', async () => {
    page = await context.newPage()
    await openEmbedPage(
      page,
      service,
      'bubble-phone-content',
      `${SCRIPT}<flow-chat-bubble ${attributes({ flow: flow.id, 'api-host': service.origin, token: service.publishableToken, label: 'Phone' })}></flow-chat-bubble>`,
    )
    await page.getByRole('button', { name: 'Open chat: Phone' }).tap()
    await page.getByRole('dialog', { name: 'Phone' }).locator('[part~="input"]').first().waitFor()
    const full = await windowFillsViewport()
    expectVisible(full)

    await page.setViewportSize({ width: PHONE.width, height: PHONE.height / 2 })
    const shrunk = await windowFillsViewport()
    expect(shrunk.viewport.bottom).toBe(PHONE.height / 2)
    expectVisible(shrunk)

    await page.setViewportSize(PHONE)
    const restored = await windowFillsViewport()
    expect(restored.window).toEqual(full.window)
    expectVisible(restored)
  })
})
