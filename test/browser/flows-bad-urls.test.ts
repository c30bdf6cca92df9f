import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { CORPUS_END, FLOW_CORPUS, GOOD_DATA_IMAGE, writeBadUrlFlow } from './fixtures-bad-urls'
import { useBrowserSuite } from './helpers/browser-suite'
import { chat } from './helpers/chat-page'

const suite = useBrowserSuite([writeBadUrlFlow()])
let page: Page

/** Every URL-bearing attribute in the widget's shadow root, as the browser resolved it. */
function urlsInWidget(page: Page) {
  return page.evaluate(() => {
    const root = document.querySelector('flow-chat')!.shadowRoot!
    const found: Array<{ tag: string; attribute: string; value: string }> = []
    for (const element of Array.from(root.querySelectorAll('*'))) {
      for (const attribute of ['href', 'src', 'action', 'formaction', 'srcdoc', 'poster', 'data', 'xlink:href']) {
        const value = element.getAttribute(attribute)
        if (value !== null) found.push({ tag: element.localName, attribute, value })
      }
      for (const { name } of Array.from(element.attributes)) {
        if (name.startsWith('on')) found.push({ tag: element.localName, attribute: name, value: 'handler' })
      }
    }
    return found
  })
}

describe('the bad-URL corpus in image, video, embed and link positions', () => {
  it('executes nothing, navigates nowhere and leaves nothing dangerous to click', async () => {
    page = await suite.newPage()
    const dialogs: string[] = []
    page.on('dialog', async (dialog) => {
      dialogs.push(dialog.message())
      await dialog.dismiss()
    })
    // Tabs opened by clicking a (harmless, same-site) link are closed again right away.
    suite.chromium.context.on('page', (opened) => {
      if (opened !== page) void opened.close()
    })
    // No CSP on this page: the widget's own allow-list is what must stop the payloads.
    const pageUrl = suite.service.pageUrl(Object.values(suite.service.flows)[0]!, { csp: false })
    await page.goto(pageUrl)
    const c = chat(page)
    await c.host(CORPUS_END).waitFor()
    const dropped = FLOW_CORPUS.filter((entry) => entry.outcome === 'dropped').length

    // Every URL left in the widget is http(s) on a web page, or the one good inline image.
    const urls = await urlsInWidget(page)
    for (const { tag, attribute, value } of urls) {
      expect(attribute, `${tag} ${attribute}`).toMatch(/^(href|src)$/)
      const allowed = /^https?:\/\//i.test(value) || (tag === 'img' && value === GOOD_DATA_IMAGE)
      expect(allowed, `${tag} ${attribute}=${value.slice(0, 80)}`).toBe(true)
    }
    // A dropped URL leaves no player or frame behind, and says so instead.
    expect(await c.transcript.getByText('Video unavailable').count()).toBe(dropped)
    expect(await c.transcript.getByText('Embedded content unavailable').count()).toBe(dropped)
    expect(await c.root.locator('img[src^="data:"]').count()).toBe(1)

    // Click everything a visitor could: links, images and the text standing in for them.
    for (const target of await c.transcript.locator('a, img, [part~="host-bubble"] span').all()) {
      await target.click({ timeout: 2_000 }).catch(() => undefined)
    }
    for (let index = 0; index < FLOW_CORPUS.length; index++) {
      await c.transcript.getByText(`rich link ${index}`, { exact: true }).click()
      await c.transcript.getByText(`html link ${index}`, { exact: true }).click()
    }

    // Dialogs and script effects are asynchronous: give them a moment to appear before asserting.
    await page.waitForTimeout(500)
    expect(dialogs).toEqual([])
    expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined()
    expect(page.url()).toBe(pageUrl)
    // No frame ever ran the payload either (embeds are opaque-origin, so ask each one).
    for (const frame of page.frames()) {
      const ran = await frame.evaluate(() => (window as { __xss?: unknown }).__xss).catch(() => undefined)
      expect(ran).toBeUndefined()
    }
  })
})
