import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { animationsSettled, attributes, deepFocus, openEmbedPage, sessionCount } from './embed/embed-test-pages'
import { useBrowserSuite } from './helpers/browser-suite'
import { axeViolations, trackErrors } from './helpers/chat-page'
import { type PublishedTestFlow, SHARED_FLOWS_DIR, TEST_FLOWS_DIR } from './helpers/test-service'

const suite = useBrowserSuite([join(TEST_FLOWS_DIR, 'theme-variant.json'), join(SHARED_FLOWS_DIR, 'tpl-nps.json')])
let page: Page
let themed: PublishedTestFlow
let nps: PublishedTestFlow

beforeAll(() => {
  themed = suite.service.flows['theme-variant.json']!
  nps = suite.service.flows['tpl-nps.json']!
})

const SCRIPT = '<script src="{script}" defer></script>'
const common = (flow: PublishedTestFlow) => ({ flow: flow.id, 'api-host': suite.service.origin, token: suite.service.publishableToken })

/** Records the launcher events of every element on the page, in order. */
async function recordEvents() {
  await page.evaluate(() => {
    const seen: string[] = ((window as { __events?: string[] }).__events = [])
    for (const type of ['flowchat:open', 'flowchat:close', 'flowchat:start']) {
      document.addEventListener(type, (event) => seen.push(`${type} ${(event.target as Element).localName}`))
    }
  })
}
const events = () => page.evaluate(() => (window as { __events?: string[] }).__events ?? [])

describe('<flow-chat-bubble>', () => {
  it('themes its launcher, starts no session until opened, opens and closes by mouse and keyboard', async () => {
    page = await suite.newPage()
    const errors = trackErrors(page)
    const before = await sessionCount(suite.service, themed.id)
    await openEmbedPage(
      page,
      suite.service,
      'bubble',
      `${SCRIPT}<flow-chat-bubble ${attributes({ ...common(themed), 'z-index': '50' })}></flow-chat-bubble>`,
    )
    await recordEvents()
    const launcher = page.getByRole('button', { name: 'Open chat: Theme variant' })
    await launcher.waitFor()
    // The flow's button colour (#003366) reaches the launcher once the published flow is read.
    await expect.poll(() => launcher.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(0, 51, 102)')
    expect(await page.locator('flow-chat-bubble').evaluate((el) => getComputedStyle(el).zIndex)).toBe('50')
    expect(await page.locator('flow-chat').count()).toBe(0)
    expect(await sessionCount(suite.service, themed.id)).toBe(before)

    await launcher.focus()
    await page.keyboard.press('Enter')
    const window = page.getByRole('dialog', { name: 'Theme variant' })
    await window.locator('[part~="host-bubble"]', { hasText: 'Favourite color?' }).waitFor()
    expect(await sessionCount(suite.service, themed.id)).toBe(before + 1)
    expect(await page.getByRole('button', { name: 'Close chat: Theme variant' }).getAttribute('aria-expanded')).toBe('true')
    await animationsSettled(page)
    expect(await axeViolations(page)).toEqual([])

    // The window stays inside the viewport.
    const box = (await window.boundingBox())!
    const viewport = page.viewportSize()!
    expect(box.y).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width)

    await page.keyboard.press('Escape')
    await window.waitFor({ state: 'hidden' })
    expect((await deepFocus(page)).label).toBe('Open chat: Theme variant')
    await page.getByRole('button', { name: 'Open chat: Theme variant' }).click()
    await window.waitFor()
    // Re-opening keeps the same conversation: no second session.
    expect(await sessionCount(suite.service, themed.id)).toBe(before + 1)
    await window.getByRole('button', { name: 'Close chat' }).click()
    await window.waitFor({ state: 'hidden' })
    expect(await events()).toEqual([
      'flowchat:open flow-chat-bubble',
      // The inner chat's events cross the shadow root, retargeted to the bubble.
      'flowchat:start flow-chat-bubble',
      'flowchat:close flow-chat-bubble',
      'flowchat:open flow-chat-bubble',
      'flowchat:close flow-chat-bubble',
    ])
    expect(errors).toEqual([])
  })

  it("is titled with the flow's name when the page gives no label (a real flow export), as is a popup", async () => {
    page = await suite.newPage()
    await openEmbedPage(
      page,
      suite.service,
      'bubble',
      `${SCRIPT}<flow-chat-bubble ${attributes(common(nps))}></flow-chat-bubble>
<flow-chat-popup ${attributes({ ...common(nps), 'storage-key': 'survey' })}></flow-chat-popup>`,
    )
    await page.getByRole('button', { name: 'Open chat: NPS Survey' }).click()
    const window = page.getByRole('dialog', { name: 'NPS Survey' })
    await window.locator('[part~="host-bubble"]').first().waitFor()
    expect(await window.locator('[part="title"]').textContent()).toBe('NPS Survey')
    await page.keyboard.press('Escape')
    await window.waitFor({ state: 'hidden' })
    await page.locator('flow-chat-popup').evaluate((popup) => (popup as HTMLElement & { open(): void }).open())
    const dialog = page.locator('flow-chat-popup').getByRole('dialog', { name: 'NPS Survey' })
    await dialog.locator('[part~="host-bubble"]').first().waitFor()
    expect(await dialog.locator('[part="title"]').textContent()).toBe('NPS Survey')
    await animationsSettled(page)
    expect(await axeViolations(page)).toEqual([])
  })

  it('shows a preview message that opens the chat or can be dismissed, and fits a phone screen', async () => {
    page = await suite.newPage()
    await page.setViewportSize({ width: 375, height: 667 })
    await openEmbedPage(
      page,
      suite.service,
      'bubble-preview',
      `${SCRIPT}<flow-chat-bubble ${attributes({ ...common(themed), placement: 'left', label: 'Support', 'preview-message': 'Need a hand?' })}></flow-chat-bubble>`,
    )
    const preview = page.getByRole('button', { name: 'Need a hand?' })
    await preview.waitFor()
    const launcher = page.getByRole('button', { name: 'Open chat: Support' })
    const launcherBox = (await launcher.boundingBox())!
    expect(launcherBox.x).toBeLessThan(100)
    // The page's own colour wins over the flow theme's.
    await expect.poll(() => launcher.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(0, 51, 102)')
    await page.addStyleTag({ url: `${suite.service.host.origin}/embed-test/page.css` })
    await expect.poll(() => launcher.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(120, 20, 60)')
    await animationsSettled(page)
    expect(await axeViolations(page)).toEqual([])
    await page.getByRole('button', { name: 'Dismiss message' }).click()
    await preview.waitFor({ state: 'hidden' })

    await page
      .locator('flow-chat-bubble')
      .evaluate((el) => (el as HTMLElement & { showPreviewMessage(t?: string): void }).showPreviewMessage('Still here'))
    await page.getByRole('button', { name: 'Still here' }).click()
    const window = page.getByRole('dialog', { name: 'Support' })
    await window.locator('[part~="host-bubble"]', { hasText: 'Favourite color?' }).waitFor()
    // The window fills the phone's screen, even with the launcher in the left corner.
    expect(await window.boundingBox()).toMatchObject({ x: 0, width: 375 })
    const field = window.locator('[part~="input"]').first()
    const box = (await field.boundingBox())!
    expect(box.y + box.height).toBeLessThanOrEqual(667)
    expect(box.y).toBeGreaterThanOrEqual(0)
  })
})

describe('<flow-chat-bubble> across pages', () => {
  it('is still open on the next page of the tab when the visitor left it open, without taking focus', async () => {
    page = await suite.newPage()
    const markup = `${SCRIPT}<flow-chat-bubble ${attributes({ ...common(themed), label: 'Kept' })}></flow-chat-bubble>`
    await openEmbedPage(page, suite.service, 'bubble-kept', markup)
    await page.getByRole('button', { name: 'Open chat: Kept' }).click()
    const window = page.getByRole('dialog', { name: 'Kept' })
    await window.locator('[part~="host-bubble"]', { hasText: 'Favourite color?' }).waitFor()
    await page.reload()
    await window.locator('[part~="host-bubble"]', { hasText: 'Favourite color?' }).waitFor()
    expect((await deepFocus(page)).hosts).toEqual([])
    await window.getByRole('button', { name: 'Close chat' }).click()
    await page.reload()
    await page.getByRole('button', { name: 'Open chat: Kept' }).waitFor()
    expect(await window.isVisible()).toBe(false)
  })
})

describe('<flow-chat-popup>', () => {
  it('is a modal dialog: focus moves in and stays, Escape and the backdrop close it, focus and scroll come back', async () => {
    page = await suite.newPage()
    const errors = trackErrors(page)
    const before = await sessionCount(suite.service, nps.id)
    await openEmbedPage(
      page,
      suite.service,
      'popup',
      `${SCRIPT}<script src="/embed-test/opener.js" defer></script>${'<p>Text above the opener.</p>'.repeat(40)}<button id="opener" type="button">Talk to us</button>
<flow-chat-popup ${attributes({ ...common(nps), label: 'Feedback' })}></flow-chat-popup>`,
    )
    await recordEvents()
    expect(await sessionCount(suite.service, nps.id)).toBe(before)
    // Clicking the opener scrolls the page down to it; the lock must keep that position.
    await page.getByRole('button', { name: 'Talk to us' }).click()
    const scrolled = await page.evaluate(() => window.scrollY)
    expect(scrolled).toBeGreaterThan(0)
    const dialog = page.getByRole('dialog', { name: 'Feedback' })
    await dialog.locator('[part~="host-bubble"]', { hasText: /can I ask you 2 questions/ }).waitFor()
    expect(await deepFocus(page)).toMatchObject({ hosts: ['flow-chat-popup'], label: 'Close chat' })
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe('hidden')
    await animationsSettled(page)
    expect(await axeViolations(page)).toEqual([])

    // Tab and Shift+Tab go round inside the dialog, never back to the page.
    const stops = await page.locator('flow-chat-popup').evaluate((popup) => {
      const chat = popup.shadowRoot!.querySelector('flow-chat')!.shadowRoot!
      return chat.querySelectorAll('button:not([disabled]), input:not([disabled]), textarea, [tabindex="0"]').length
    })
    for (const key of ['Tab', 'Shift+Tab']) {
      // One full round and then some: past the last stop focus must wrap to the first, and back.
      let wrapped = false
      for (let i = 0; i < stops + 3; i++) {
        await page.keyboard.press(key)
        const focus = await deepFocus(page)
        expect(focus.hosts[0]).toBe('flow-chat-popup')
        if (i > 0 && focus.label === 'Close chat') wrapped = true
      }
      expect(wrapped).toBe(true)
    }

    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
    expect((await deepFocus(page)).id).toBe('opener')
    expect(await page.evaluate(() => document.documentElement.style.overflow)).toBe('')
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolled)

    // Backdrop click: outside the dialog box.
    await page.getByRole('button', { name: 'Talk to us' }).click()
    await dialog.waitFor()
    await page.mouse.click(3, 3)
    await dialog.waitFor({ state: 'hidden' })
    expect((await deepFocus(page)).id).toBe('opener')
    expect(await sessionCount(suite.service, nps.id)).toBe(before + 1)
    expect(await events()).toEqual([
      'flowchat:open flow-chat-popup',
      'flowchat:start flow-chat-popup',
      'flowchat:close flow-chat-popup',
      'flowchat:open flow-chat-popup',
      'flowchat:close flow-chat-popup',
    ])
    expect(errors).toEqual([])
  })

  it('opens by itself with default-open or after auto-show-delay', async () => {
    page = await suite.newPage()
    await openEmbedPage(
      page,
      suite.service,
      'popup-auto',
      `${SCRIPT}<flow-chat-popup ${attributes({ ...common(themed), label: 'Now', 'default-open': true })}></flow-chat-popup>
<flow-chat-popup ${attributes({ ...common(nps), label: 'Later', 'auto-show-delay': '300' })}></flow-chat-popup>`,
    )
    const now = page.getByRole('dialog', { name: 'Now' })
    await now.locator('[part~="host-bubble"]', { hasText: 'Favourite color?' }).waitFor()
    // The delayed one opens on top of the first; Escape closes the top one only.
    const later = page.getByRole('dialog', { name: 'Later' })
    await later.locator('[part~="host-bubble"]', { hasText: /can I ask you 2 questions/ }).waitFor()
    await page.keyboard.press('Escape')
    await later.waitFor({ state: 'hidden' })
    expect(await now.isVisible()).toBe(true)
    expect((await deepFocus(page)).hosts).toEqual(['flow-chat-popup'])
    await page.keyboard.press('Escape')
    await now.waitFor({ state: 'hidden' })
  })
})
