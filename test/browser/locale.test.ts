import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { animationsSettled, attributes } from './embed/embed-test-pages'
import { useBrowserSuite } from './helpers/browser-suite'
import { axeViolations, chat, trackErrors } from './helpers/chat-page'
import { type PublishedTestFlow, SHARED_FLOWS_DIR, TEST_FLOWS_DIR } from './helpers/test-service'

// The visitor's language, reading direction and colour scheme, in Chromium, on host pages of
// another site: words, layout, formats, and what reaches the service.

const suite = useBrowserSuite([join(TEST_FLOWS_DIR, 'locale.json'), join(SHARED_FLOWS_DIR, 'tpl-product-recommendation.json')])
let page: Page

const flow = (file = 'locale.json'): PublishedTestFlow => suite.service.flows[file]!
const chatAttributes = (file?: string) =>
  attributes({ flow: flow(file).id, 'api-host': suite.service.origin, token: suite.service.publishableToken })

let pages = 0
/**
 * A host page on the host site: `<html>` with `root` attributes (its lang and dir), the widget's
 * script, `body`, and optionally a script of the page's own (`pageScript`, served beside it).
 */
async function open(root: Record<string, string>, body: string, pageScript?: string) {
  const name = `/locale/${++pages}`
  const script = pageScript ? suite.service.host.serve(`${name}.js`, { type: 'text/javascript', body: pageScript }) : undefined
  const url = suite.service.host.serve(name, {
    headers: { 'Content-Security-Policy': suite.service.csp },
    body: `<!doctype html>
<html ${attributes(root)}>
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>locale test</title>
${script ? `<script src="${script}"></script>` : ''}
<script src="${suite.service.script}" defer></script></head>
<body><main><h1>Host page</h1>${body}</main></body>
</html>`,
  })
  await page.goto(url)
}

/** The answers the page sends the service (continueChat bodies' messages), as the service gets them. */
function sentMessages(target: Page): unknown[] {
  const sent: unknown[] = []
  target.on('request', (request) => {
    if (request.url().endsWith('/continueChat') && request.method() === 'POST')
      sent.push((request.postDataJSON() as { message?: unknown }).message)
  })
  return sent
}

type Chat = ReturnType<typeof chat>

/** Answers every input of locale.json as a visitor would, in the chat's language (`send`: its Send button). */
async function walk(c: Chat, send: string) {
  await c.say('Ada')
  await c.root.getByRole('spinbutton').fill('3.5')
  await c.root.getByRole('spinbutton').press('Enter')
  await c.root.locator('input[type="date"]').fill('2026-03-01')
  await c.root.getByRole('button', { name: send }).click()
  await c.root.getByRole('button', { name: 'Museum' }).click()
  await c.root.getByRole('button', { name: 'Harbour' }).click()
  await c.root.getByRole('button', { name: send }).click()
}

describe('a French page', () => {
  it('speaks French, writes numbers and dates the French way, and sends them as the contract writes them', async () => {
    page = await suite.newPage()
    const errors = trackErrors(page)
    const sent = sentMessages(page)
    await open({ lang: 'fr' }, `<flow-chat ${chatAttributes()}></flow-chat>`)
    const c = chat(page)
    await c.root.getByRole('region', { name: 'Discussion' }).waitFor()
    await c.root.getByRole('button', { name: 'Envoyer' }).waitFor()
    expect(await c.input.getAttribute('placeholder')).toBe('Écrivez votre réponse…')
    expect(await c.root.getByRole('progressbar').getAttribute('aria-label')).toBe('Progression')
    await walk(c, 'Envoyer')
    const stars = c.root.getByRole('group', { name: 'Note' })
    await stars.getByRole('button', { name: '4 sur 5' }).click()
    await c.root.getByRole('button', { name: 'Envoyer' }).click()
    await c.host(/rated 4/).waitFor()
    expect(await c.guestBubbles.allTextContents()).toEqual(['Ada', '3,5', '1 mars 2026', 'Museum, Harbour', '4/5'])
    expect(sent).toEqual(['Ada', '3.5', '2026-03-01', 'Museum, Harbour', '4'])
    await animationsSettled(page)
    expect(await axeViolations(page)).toEqual([])
    expect(errors).toEqual([])
  })
})

describe('an Arabic page', () => {
  it('is laid out right to left: bubbles, avatars, input, progress bar and the values it sends', async () => {
    page = await suite.newPage()
    const errors = trackErrors(page)
    const sent = sentMessages(page)
    await open({ lang: 'ar', dir: 'rtl' }, `<flow-chat ${chatAttributes()}></flow-chat>`)
    const c = chat(page)
    await c.root.getByRole('button', { name: 'إرسال' }).waitFor()
    await c.say('Ada')
    await c.root.getByRole('spinbutton').waitFor()

    const box = async (selector: string) => (await c.root.locator(selector).first().boundingBox())!
    const container = await box('[part="container"]')
    const host = await box('[part~="host-bubble"]')
    const avatar = await box('[part~="host-avatar"]')
    const guest = await box('[part~="guest-bubble"]')
    const field = await box('[part~="input"]')
    const sendButton = await box('[part~="send-button"]')
    // The flow speaks from the right, its avatar at the edge; the visitor answers on the left.
    expect(avatar.x).toBeGreaterThan(host.x + host.width - 1)
    expect(container.x + container.width - (avatar.x + avatar.width)).toBeLessThan(24)
    expect(guest.x - container.x).toBeLessThan(24)
    expect(guest.x + guest.width).toBeLessThan(host.x)
    // The field then its button, reading right to left.
    expect(sendButton.x + sendButton.width).toBeLessThanOrEqual(field.x)
    // The bar fills from the right.
    const bar = await box('[part="progress"]')
    const fill = await box('[part="progress-fill"]')
    expect(fill.width).toBeGreaterThan(0)
    expect(fill.width).toBeLessThan(bar.width)
    expect(Math.abs(fill.x + fill.width - (bar.x + bar.width))).toBeLessThan(1)

    await c.root.getByRole('spinbutton').fill('3.5')
    await c.root.getByRole('spinbutton').press('Enter')
    await c.root.locator('input[type="date"]').fill('2026-03-01')
    await c.root.getByRole('button', { name: 'إرسال' }).click()
    await c.root.getByRole('button', { name: 'Museum' }).waitFor()
    expect(sent).toEqual(['Ada', '3.5', '2026-03-01'])
    expect(await c.guestBubbles.nth(1).textContent()).toBe(new Intl.NumberFormat('ar', { maximumFractionDigits: 20 }).format(3.5))
    await animationsSettled(page)
    expect(await axeViolations(page)).toEqual([])
    expect(errors).toEqual([])
  })

  it('puts a bubble’s launcher in the left corner, and mirrors its window and a popup’s header', async () => {
    page = await suite.newPage()
    await open(
      { lang: 'ar', dir: 'rtl' },
      `<flow-chat-bubble ${chatAttributes()}></flow-chat-bubble><flow-chat-popup ${chatAttributes()}></flow-chat-popup>`,
    )
    const launcher = page.getByRole('button', { name: /^فتح الدردشة/ })
    await launcher.waitFor()
    const viewport = page.viewportSize()!
    expect((await launcher.boundingBox())!.x).toBeLessThan(100)
    await launcher.click()
    const window = page.locator('flow-chat-bubble').locator('[part="window"]')
    await window.locator('[part~="host-bubble"]').first().waitFor()
    const windowBox = (await window.boundingBox())!
    expect(windowBox.x).toBeLessThan(viewport.width - (windowBox.x + windowBox.width))
    // Open, the launcher is a close button (with its cross) in Arabic.
    expect(await page.getByRole('button', { name: /^إغلاق الدردشة:/ }).getAttribute('data-icon')).toBe('close')
    const title = (await window.locator('[part="title"]').boundingBox())!
    const close = (await window.locator('[part="close-button"]').boundingBox())!
    expect(close.x + close.width).toBeLessThanOrEqual(title.x)

    await page.locator('flow-chat-popup').evaluate((popup) => (popup as HTMLElement & { open(): void }).open())
    const dialog = page.locator('flow-chat-popup').locator('dialog')
    await dialog.locator('[part~="host-bubble"]').first().waitFor()
    const popupTitle = (await dialog.locator('[part="title"]').boundingBox())!
    const popupClose = (await dialog.locator('[part="close-button"]').boundingBox())!
    expect(popupClose.x + popupClose.width).toBeLessThanOrEqual(popupTitle.x)
    expect(await dialog.getAttribute('dir')).toBe('rtl')
  })
})

describe('a Brazilian Portuguese visitor', () => {
  it('gets the Portuguese words from the page’s pt-BR, which its formats keep', async () => {
    page = await suite.newPage()
    await open({ lang: 'pt-BR' }, `<flow-chat ${chatAttributes()}></flow-chat>`)
    const c = chat(page)
    await c.root.getByRole('button', { name: 'Enviar' }).waitFor()
    expect(await c.input.getAttribute('placeholder')).toBe('Digite sua resposta…')
    expect(await c.root.locator('[part="frame"]').getAttribute('lang')).toBe('pt-BR')
  })

  it('gets them from the browser’s languages when the page says none', async () => {
    page = await suite.newPage()
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Emulation.setUserAgentOverride', {
      userAgent: await page.evaluate(() => navigator.userAgent),
      acceptLanguage: 'pt-BR,en',
    })
    await open({}, `<flow-chat ${chatAttributes()}></flow-chat>`)
    expect(await page.evaluate(() => navigator.languages)).toEqual(['pt-BR', 'en'])
    const c = chat(page)
    await c.root.getByRole('button', { name: 'Enviar' }).waitFor()
    await cdp.detach()
  })
})

describe('the page’s own words', () => {
  it('replace any string, and an id the widget does not have is reported with its code', async () => {
    page = await suite.newPage()
    const script = `
      window.__logs = []
      document.addEventListener('flowchat:log', (event) => window.__logs.push(event.detail))
      customElements.whenDefined('flow-chat').then(() => {
        document.querySelector('flow-chat').strings = { send: 'Go!', typeAnswer: 'Your first name', sendd: 'Typo' }
      })`
    await open({ lang: 'en' }, `<flow-chat ${chatAttributes()}></flow-chat>`, script)
    const c = chat(page)
    await c.root.getByRole('button', { name: 'Go!' }).waitFor()
    expect(await c.input.getAttribute('aria-label')).toBe('Your first name')
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            (window as { __logs?: Array<{ code: string; details: unknown }> }).__logs?.find((log) => log.code === 'unknown-string')
              ?.details,
        ),
      )
      .toEqual({ unknown: ['sendd'], invalid: [] })
  })
})

describe('the dark scheme', () => {
  it('keeps AA contrast, left to right and right to left', async () => {
    for (const root of [{ lang: 'fr' }, { lang: 'ar', dir: 'rtl' }] as Array<Record<string, string>>) {
      page = await suite.newPage()
      await open(root, `<flow-chat ${chatAttributes()} color-scheme="dark"></flow-chat>`)
      const c = chat(page)
      await c.input.waitFor()
      await c.say('Ada')
      await c.root.getByRole('spinbutton').waitFor()
      expect(await c.root.locator('[part="frame"]').evaluate((frame) => getComputedStyle(frame).backgroundColor)).toBe('rgb(21, 23, 27)')
      await animationsSettled(page)
      expect(await axeViolations(page), root.lang).toEqual([])
      await page.close()
    }
  })

  it('follows the visitor’s system with `auto`, both ways, and keeps a flow’s own colours readable', async () => {
    page = await suite.newPage()
    await page.emulateMedia({ colorScheme: 'dark' })
    await open({ lang: 'en' }, `<flow-chat ${chatAttributes()} color-scheme="auto"></flow-chat>`)
    const c = chat(page)
    await c.input.waitFor()
    const background = () => c.root.locator('[part="frame"]').evaluate((frame) => getComputedStyle(frame).backgroundColor)
    await expect.poll(background).toBe('rgb(21, 23, 27)')
    await animationsSettled(page)
    expect(await axeViolations(page)).toEqual([])
    await page.emulateMedia({ colorScheme: 'light' })
    await expect.poll(background).toBe('rgb(255, 255, 255)')
    expect(await axeViolations(page)).toEqual([])

    // A flow with a dark theme of its own, shown light and dark: its colours stay, the text it leaves unset reads on them.
    for (const scheme of ['light', 'dark']) {
      page = await suite.newPage()
      await open({ lang: 'en' }, `<flow-chat ${chatAttributes('tpl-product-recommendation.json')} color-scheme="${scheme}"></flow-chat>`)
      const themed = chat(page)
      await themed.hostBubbles.first().waitFor()
      expect(await themed.root.locator('[part="frame"]').evaluate((frame) => getComputedStyle(frame).backgroundColor)).toBe('rgb(1, 0, 0)')
      await animationsSettled(page)
      expect(await axeViolations(page), scheme).toEqual([])
    }
  })
})
