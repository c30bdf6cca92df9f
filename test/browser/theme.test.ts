import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { useBrowserSuite } from './helpers/browser-suite'
import { chat } from './helpers/chat-page'
import { DEMO_FLOWS_DIR, TEST_FLOWS_DIR } from './helpers/test-service'

const suite = useBrowserSuite([join(DEMO_FLOWS_DIR, 'showcase.json'), join(TEST_FLOWS_DIR, 'theme-variant.json')])
let page: Page

const style = (locator: Locator, ...properties: string[]) =>
  locator.evaluate((element, names) => {
    const computed = getComputedStyle(element)
    return Object.fromEntries(names.map((name) => [name, computed.getPropertyValue(name)]))
  }, properties)

const progressValue = async (c: ReturnType<typeof chat>) =>
  Number(await c.root.getByRole('progressbar', { name: 'Progress' }).getAttribute('aria-valuenow'))

describe('theme in Chromium', () => {
  it('shows the published theme in computed styles and lets the host page restyle from outside', async () => {
    page = await suite.newPage()
    await page.goto(suite.service.pageUrl(suite.service.flows['showcase.json']!, { hostCss: true }))
    const c = chat(page)
    await c.host('What should I call you?').waitFor()

    expect(
      await style(c.hostBubbles.first(), 'background-color', 'color', 'border-top-left-radius', 'outline-color', 'outline-width'),
    ).toEqual({
      'background-color': 'rgb(237, 233, 254)',
      color: 'rgb(31, 41, 55)',
      'border-top-left-radius': '20px',
      // flow-chat::part(host-bubble) from the host page
      'outline-color': 'rgb(4, 5, 6)',
      'outline-width': '3px',
    })
    // The host page's `p { color: … !important }` does not reach into the widget.
    expect(await style(c.hostBubbles.first().locator('p').first(), 'color')).toEqual({ color: 'rgb(31, 41, 55)' })
    expect((await style(c.hostBubbles.first(), 'font-family'))['font-family']).toMatch(/^"flowchat Inter", Inter, system-ui/)
    expect(
      await style(c.root.locator('[part="container"]'), 'max-width', 'border-top-width', 'border-top-color', 'border-top-left-radius'),
    ).toEqual({
      'max-width': '720px',
      'border-top-width': '1px',
      'border-top-color': 'rgb(221, 214, 254)',
      'border-top-left-radius': '16px',
    })
    expect(await style(c.input, 'border-top-color', 'border-top-left-radius')).toEqual({
      'border-top-color': 'rgb(196, 181, 253)',
      'border-top-left-radius': '6px',
    })

    const bar = c.root.locator('[part="progress"]')
    expect(await style(bar, 'height', 'background-color', 'position')).toEqual({
      height: '6px',
      'background-color': 'rgb(221, 214, 254)',
      position: 'absolute',
    })
    expect(await style(c.root.locator('[part="progress-fill"]'), 'background-color')).toEqual({ 'background-color': 'rgb(109, 40, 217)' })
    const [barBox, widgetBox] = await Promise.all([bar.boundingBox(), c.root.boundingBox()])
    expect(barBox?.y).toBe(widgetBox?.y)

    await c.say('Ada')
    // --fc-guest-bubble-bg set by the host page wins over the theme's guest bubble color.
    expect(await style(c.guestBubbles.first(), 'background-color', 'color')).toEqual({
      'background-color': 'rgb(1, 2, 3)',
      color: 'rgb(255, 255, 255)',
    })
  })

  it('applies another theme: bottom fixed progress bar, no roundness, borders with opacity, background image', async () => {
    page = await suite.newPage()
    await page.goto(suite.service.pageUrl(suite.service.flows['theme-variant.json']!))
    const c = chat(page)
    await c.host('Favourite color?').waitFor()
    const bar = c.root.locator('[part="progress"]')
    expect(await style(bar, 'height', 'position', 'background-color')).toEqual({
      height: '10px',
      position: 'fixed',
      'background-color': 'rgb(0, 255, 0)',
    })
    const barBox = await bar.boundingBox()
    expect((barBox?.y ?? 0) + (barBox?.height ?? 0)).toBe(page.viewportSize()?.height)
    expect(
      await style(
        c.hostBubbles.first(),
        'background-color',
        'border-top-left-radius',
        'border-top-width',
        'border-top-color',
        'box-shadow',
      ),
    ).toEqual({
      'background-color': 'rgb(0, 0, 128)',
      'border-top-left-radius': '0px',
      'border-top-width': '2px',
      'border-top-color': expect.stringMatching(/^(color\(srgb 1 0 1 \/ 0\.5\)|rgba\(255, 0, 255, 0\.5\))$/),
      'box-shadow': expect.stringContaining('rgba(0, 0, 0, 0.1)'),
    })
    expect(await style(c.root.locator('[part="frame"]'), 'background-image')).toEqual({
      'background-image': expect.stringMatching(/url\(".*\/demo\/assets\/welcome\.svg"\)/),
    })
    expect(await style(c.root.locator('[part="container"]'), 'max-width', 'backdrop-filter')).toEqual({
      'max-width': '500px',
      'backdrop-filter': 'blur(8px)',
    })
    expect(await style(c.input, 'background-color', 'border-top-width', 'border-top-left-radius')).toEqual({
      'background-color': 'rgb(255, 255, 238)',
      'border-top-width': '3px',
      'border-top-left-radius': '0px',
    })
    await c.say('blue')
    expect(await style(c.guestBubbles.first(), 'border-top-left-radius')).toEqual({ 'border-top-left-radius': '3px' })
  })

  it('advances the progress bar as the conversation goes on', async () => {
    page = await suite.newPage()
    await page.goto(suite.service.pageUrl(suite.service.flows['theme-variant.json']!))
    const c = chat(page)
    await c.host('Favourite color?').waitFor()
    const fill = c.root.locator('[part="progress-fill"]')
    const first = await progressValue(c)
    const firstWidth = (await fill.boundingBox())?.width ?? 0
    await c.say('blue')
    await c.host('Favourite food?').waitFor()
    const second = await progressValue(c)
    await c.say('pasta')
    await c.host('Thanks!').waitFor()
    await expect.poll(() => progressValue(c)).toBe(100)
    expect(first).toBeLessThan(second)
    expect(second).toBeLessThan(100)
    await expect.poll(async () => (await fill.boundingBox())?.width ?? 0).toBeGreaterThan(firstWidth)
  })
})
