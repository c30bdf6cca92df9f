import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { animationsSettled, attributes } from './embed/embed-test-pages'
import { useBrowserSuite } from './helpers/browser-suite'
import { axeViolations, chat } from './helpers/chat-page'
import { REPO_ROOT, TEST_FLOWS_DIR } from './helpers/test-service'

// The default theme (no colours set, as most real flows have) as a visitor sees it. Screenshots
// are kept as artefacts of the run, for people to look at (never compared pixel by pixel), in a
// git-ignored folder.

const suite = useBrowserSuite([join(TEST_FLOWS_DIR, 'default-look.json')])
const SCREENSHOTS = join(REPO_ROOT, '.tmp/screenshots')
let page: Page

const chatAttributes = () =>
  attributes({
    flow: suite.service.flows['default-look.json']!.id,
    'api-host': suite.service.origin,
    token: suite.service.publishableToken,
  })

let pages = 0
/** A host page with `body`, its stylesheet `css` served beside it (the host CSP allows no inline style). */
async function open(body: string, css = '') {
  const name = `/look/${++pages}`
  const sheet = suite.service.host.serve(`${name}.css`, {
    type: 'text/css',
    body: `body { margin: 0; font-family: Georgia, serif; } main { padding: 16px; } ${css}`,
  })
  await page.goto(
    suite.service.host.serve(name, {
      headers: { 'Content-Security-Policy': suite.service.csp },
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>default look</title><link rel="stylesheet" href="${sheet}"><script src="${suite.service.script}" defer></script></head>
<body><main><h1>Host page</h1>${body}</main></body></html>`,
    }),
  )
}

/** Walks the flow to its multiple choice, with one choice picked by mouse. */
async function toChoices(c: ReturnType<typeof chat>) {
  await c.say('Ada')
  await c.root.getByRole('spinbutton').fill('3')
  await c.root.getByRole('spinbutton').press('Enter')
  await c.root.locator('input[type="date"]').fill('2026-03-01')
  await c.root.getByRole('button', { name: 'Send' }).click()
  await c.root.getByRole('button', { name: 'Museum' }).click()
}

async function screenshot(name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true })
  await animationsSettled(page)
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true })
}

const LAYOUTS = [
  { name: 'desktop-wide', viewport: { width: 1280, height: 860 }, css: 'flow-chat { height: 680px; }' },
  {
    name: 'desktop-narrow',
    viewport: { width: 1280, height: 860 },
    css: 'main { display: grid; grid-template-columns: 1fr 360px; gap: 24px; } flow-chat { height: 680px; }',
  },
  { name: 'phone', viewport: { width: 390, height: 844 }, css: 'flow-chat { height: 720px; }' },
  { name: 'phone-dark', viewport: { width: 390, height: 844 }, css: 'flow-chat { height: 720px; }', scheme: 'dark' },
]

describe('the default look', () => {
  for (const layout of LAYOUTS) {
    it(`is finished in a ${layout.name} layout (screenshot in .tmp/screenshots)`, async () => {
      page = await suite.newPage()
      await page.setViewportSize(layout.viewport)
      const wide = layout.name === 'desktop-narrow' ? '<article><p>The page’s own column.</p></article>' : ''
      await open(`${wide}<flow-chat ${chatAttributes()} ${layout.scheme ? `color-scheme="${layout.scheme}"` : ''}></flow-chat>`, layout.css)
      const c = chat(page)
      await toChoices(c)
      await screenshot(`default-look-${layout.name}`)
      // The choices and their Send button end at the column's edge, where the visitor's answers do.
      const [answer, send] = await Promise.all([
        c.guestBubbles.first().boundingBox(),
        c.root.getByRole('button', { name: 'Send' }).boundingBox(),
      ])
      expect(Math.abs(answer!.x + answer!.width - (send!.x + send!.width))).toBeLessThan(1)
      expect(await axeViolations(page)).toEqual([])
    })
  }

  it('shows a multiple choice’s toggles on and off unmistakably, and focus rings for the keyboard only', async () => {
    page = await suite.newPage()
    await page.setViewportSize({ width: 1000, height: 800 })
    await open(`<flow-chat ${chatAttributes()}></flow-chat>`, 'flow-chat { height: 680px; }')
    const c = chat(page)
    await toChoices(c)
    const toggle = (name: string) => c.root.getByRole('button', { name })
    const look = (name: string) =>
      toggle(name).evaluate((button) => {
        const style = getComputedStyle(button)
        return {
          pressed: button.getAttribute('aria-pressed'),
          background: style.backgroundColor,
          outline: style.outlineStyle,
          check: getComputedStyle(button, '::before').content,
        }
      })
    const [on, off] = [await look('Museum'), await look('Gardens')]
    expect(on).toMatchObject({ pressed: 'true', check: '"✓"' })
    expect(off).toMatchObject({ pressed: 'false', background: 'rgba(0, 0, 0, 0)', check: 'none' })
    expect(on.background).not.toBe(off.background)
    // Clicked with the mouse: focused, without a ring.
    expect(await toggle('Museum').evaluate((button) => [button.matches(':focus'), button.matches(':focus-visible')])).toEqual([true, false])
    expect(on.outline).toBe('none')
    // With the keyboard, the next control shows where focus is.
    await page.keyboard.press('Tab')
    expect(
      await toggle('Old town').evaluate((button) => [button.matches(':focus-visible'), getComputedStyle(button).outlineStyle]),
    ).toEqual([true, 'solid'])
  })

  it('gives a bubble a close icon while open, and no focus ring to a window opened with the mouse', async () => {
    page = await suite.newPage()
    await page.setViewportSize({ width: 1000, height: 800 })
    await open(`<flow-chat-bubble ${chatAttributes()}></flow-chat-bubble>`)
    const launcher = page.getByRole('button', { name: /^Open chat/ })
    await launcher.waitFor()
    const icon = () => page.locator('flow-chat-bubble').locator('[part="button"] path').getAttribute('d')
    const closed = await icon()
    await launcher.click()
    await page.locator('flow-chat-bubble').locator('[part~="host-bubble"]').first().waitFor()
    const close = page.locator('flow-chat-bubble').locator('[part="close-button"]')
    expect(
      await close.evaluate((button) => [button.matches(':focus'), button.matches(':focus-visible'), getComputedStyle(button).outlineStyle]),
    ).toEqual([true, false, 'none'])
    expect(await icon()).not.toBe(closed)
    expect(await page.getByRole('button', { name: /^Close chat:/ }).getAttribute('data-icon')).toBe('close')
    await screenshot('default-look-bubble-open')
    await page.keyboard.press('Escape')
    expect(await icon()).toBe(closed)
  })
})
