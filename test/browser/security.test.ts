import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { useBrowserSuite } from './helpers/browser-suite'
import { chat } from './helpers/chat-page'
import { TEST_FLOWS_DIR } from './helpers/test-service'

const suite = useBrowserSuite([join(TEST_FLOWS_DIR, 'hostile.json')])
let page: Page

const xss = (page: Page) => page.evaluate(() => (window as { __xss?: unknown }).__xss)

describe('hostile flow content in Chromium', () => {
  // No CSP on this page: the widget's own sanitising is what must stop the payloads.
  it('executes no script, handler or javascript: URL from messages, theme or answers', async () => {
    page = await suite.newPage()
    const dialogs: string[] = []
    page.on('dialog', async (dialog) => {
      dialogs.push(dialog.message())
      await dialog.dismiss()
    })
    await page.goto(suite.service.pageUrl(suite.service.flows['hostile.json']!, { csp: false }))
    const c = chat(page)
    await c.host('Your name?').waitFor()
    await c.host('html payload').locator('.rt:not([hidden])').waitFor()

    // Text in a richText leaf stays text.
    expect(await c.hostBubbles.first().textContent()).toContain('<img src=x onerror=')
    // Links and images with unsafe URLs are not links or images.
    const bubbles = c.root.locator('[part~="host-row"]')
    expect(
      await bubbles
        .locator('a[href^="javascript:" i], img[src^="javascript:" i], [onerror], [onmouseover], script, iframe, form, svg')
        .count(),
    ).toBe(0)
    await c.transcript.getByText('rich link').click()
    await c.transcript.getByText('html link', { exact: true }).click()
    await c.transcript.getByText('html payload', { exact: true }).hover()
    // The image with an unsafe source and link shows its alt text, not an image or a link.
    const unsafeImage = c.hostBubbles.nth(2)
    expect(await unsafeImage.textContent()).toBe('image link')
    expect(await unsafeImage.locator('a, img, [href], [src]').count()).toBe(0)

    await c.say(`<img src=x onerror="window.__xss='answer'">`)
    await c.host(/Hello/).waitFor()
    // The answer is a variable's value, read as Markdown: its HTML shows as text, no element.
    expect((await c.host(/Hello/).textContent())?.trim()).toBe(`Hello <img src=x onerror="window.__xss='answer'">`)
    expect(await c.host(/Hello/).locator('img, [onerror]').count()).toBe(0)

    await page.waitForTimeout(300)
    expect(await xss(page)).toBeUndefined()
    expect(dialogs).toEqual([])
    expect(page.url()).toContain('/test/page')
  })

  it('keeps theme values and custom CSS inside the widget', async () => {
    page = await suite.newPage()
    await page.goto(suite.service.pageUrl(suite.service.flows['hostile.json']!))
    const c = chat(page)
    await c.host('Your name?').waitFor()
    const hostPage = await page.evaluate(() => ({
      bodyDisplay: getComputedStyle(document.body).display,
      textColor: getComputedStyle(document.getElementById('host-text')!).color,
      headStyles: document.head.querySelectorAll('style, link[rel="stylesheet"]').length,
    }))
    expect(hostPage).toEqual({ bodyDisplay: 'block', textColor: 'rgb(0, 0, 0)', headStyles: 0 })
    // The custom CSS does apply inside the shadow root...
    expect(
      await c.hostBubbles
        .first()
        .locator('p')
        .first()
        .evaluate((p) => getComputedStyle(p).color),
    ).toBe('rgb(255, 0, 0)')
    // ...while the invalid theme values fell back to the defaults.
    const bubble = await c.hostBubbles.first().evaluate((el) => getComputedStyle(el).backgroundColor)
    expect(bubble).toBe('rgb(238, 241, 246)')
    expect(await xss(page)).toBeUndefined()
  })
})
