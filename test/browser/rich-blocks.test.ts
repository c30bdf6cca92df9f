import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { useBrowserSuite } from './helpers/browser-suite'
import { axeViolations, chat, trackErrors } from './helpers/chat-page'
import { TEST_FLOWS_DIR } from './helpers/test-service'

// Cards, a QR code, the payment notice and a script reading the page's address, in Chromium, on a
// host page of another site than the service (rich-blocks.json); and an export as a builder writes
// it that reads `document.location`, shows cards and asks for a photo (travel-enquiry.json).

const suite = useBrowserSuite([join(TEST_FLOWS_DIR, 'rich-blocks.json'), join(TEST_FLOWS_DIR, 'travel-enquiry.json')])

/** The first bytes of a JPEG photo: what the service's content check reads. */
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]), Buffer.alloc(64)])

let pages = 0
/** A host page embedding the flow, with `extra` attributes on the element; opened at `?utm=ads#top`. */
async function open(page: Page, extra = '') {
  const { service } = suite
  const flow = service.flows['rich-blocks.json']!
  const url = service.host.serve(`/rich/${++pages}`, {
    headers: { 'Content-Security-Policy': service.csp },
    body: `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>rich blocks</title>
<script src="${service.script}" defer></script></head>
<body><main><h1>Host page</h1><flow-chat flow="${flow.id}" api-host="${service.origin}" token="${service.publishableToken}" ${extra}></flow-chat></main></body></html>`,
  })
  const address = `${url}?utm=ads#top`
  await page.goto(address)
  return address
}

/** What the flow's script read as `location`, from the bubble that shows it. */
async function scriptSaw(c: ReturnType<typeof chat>) {
  const bubble = c.host('Page:')
  await bubble.waitFor()
  return JSON.parse(/Page: (\{.*\})/s.exec((await bubble.textContent()) ?? '')![1]!) as Record<string, unknown>
}

describe('rich blocks in the widget', () => {
  it('gives scripts the page address; shows cards, a QR code and the payment notice, which ends the chat; by mouse; axe clean', async () => {
    const page = await suite.newPage()
    const errors = trackErrors(page)
    const address = await open(page)
    const c = chat(page)

    const seen = await scriptSaw(c)
    const url = new URL(address)
    expect(seen).toEqual({
      href: address,
      origin: url.origin,
      pathname: url.pathname,
      search: '?utm=ads',
      hash: '#top',
      referrer: '',
      frozen: true,
      own: address,
    })

    // Two cards (the third one's display condition fails), each with its picture, title, text and buttons.
    const cards = c.root.getByRole('list', { name: 'Cards' })
    await cards.waitFor()
    const items = cards.getByRole('listitem')
    expect(await items.count()).toBe(2)
    expect(await items.first().getAttribute('aria-label')).toBe('Paris (1 of 2)')
    await expect
      .poll(() =>
        items
          .first()
          .locator('img')
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
      )
      .toBe(true)
    expect(await axeViolations(page)).toEqual([])
    await items.first().getByRole('button', { name: 'More info' }).click()
    await c.guestBubbles.filter({ hasText: 'More info' }).waitFor()
    await c.host('More about Paris').waitFor()

    // The QR code: a picture the service draws, its text as the alternative.
    const qr = c.root.getByRole('img', { name: 'TICKET Paris <FC-42>' })
    await qr.waitFor()
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 100)).toBe(true)
    expect(new URL((await qr.getAttribute('src')) ?? '').origin).toBe(suite.service.origin)

    // Payment: said plainly, announced; Continue ends the chat there, the paid branch never opens.
    const notice = c.root.getByRole('status').filter({ hasText: 'Payment is not available in this chat.' })
    await notice.waitFor()
    expect(await axeViolations(page)).toEqual([])
    await c.button('Continue').click()
    await notice.waitFor({ state: 'detached' })
    await c.guestBubbles.filter({ hasText: 'Continue' }).waitFor()
    expect(await c.host('Your download link').count()).toBe(0)
    expect(await c.input.count()).toBe(0)
    expect(await axeViolations(page)).toEqual([])
    expect(errors).toEqual([])
  })

  it('on a phone: cards scroll sideways and the keyboard moves between them and answers', async () => {
    const page = await suite.newPage()
    await page.setViewportSize({ width: 360, height: 720 })
    const errors = trackErrors(page)
    await open(page)
    const c = chat(page)
    const cards = c.root.getByRole('list', { name: 'Cards' })
    await cards.waitFor()
    const size = await cards.evaluate((list) => ({
      scroll: list.scrollWidth,
      client: list.clientWidth,
      card: list.firstElementChild!.getBoundingClientRect().width,
    }))
    expect(size.scroll).toBeGreaterThan(size.client)
    expect(size.card).toBeLessThan(360)

    const paris = cards.getByRole('listitem').first().getByRole('button', { name: 'Visit' })
    await paris.focus()
    await page.keyboard.press('ArrowRight')
    const rome = cards.getByRole('listitem').nth(1).getByRole('button', { name: 'Visit' })
    await expect.poll(() => rome.evaluate((button) => (button.getRootNode() as ShadowRoot).activeElement === button)).toBe(true)
    // The focused card is scrolled into view.
    await expect.poll(() => cards.evaluate((list) => list.scrollLeft)).toBeGreaterThan(0)
    expect(await axeViolations(page)).toEqual([])
    await page.keyboard.press('Enter')
    await c.host('Visiting Rome').waitFor()
    expect(await c.guestBubbles.last().textContent()).toContain('Visit')
    await c.root.getByRole('img', { name: 'TICKET Rome <FC-42>' }).waitFor()
    await c.button('Continue').focus()
    await page.keyboard.press('Enter')
    await c.guestBubbles.filter({ hasText: 'Continue' }).waitFor()
    expect(errors).toEqual([])
  })

  it("runs a builder's export: document.location is the page's, cards are found by their headings, the photo input accepts as browsers expect", async () => {
    const page = await suite.newPage()
    const errors = trackErrors(page)
    const { service } = suite
    await page.goto(service.pageUrl(service.flows['travel-enquiry.json']!))
    const c = chat(page)
    const hostOrigin = new URL(page.url()).origin
    expect(hostOrigin).not.toBe(service.origin)
    await c.host(`Planning a trip from ${hostOrigin}? Pick a city.`).waitFor()

    // A screen reader user moves between cards by heading: each title is a level-2 heading, which
    // skips no level below the host page's h1 (axe's heading-order holds).
    const paris = c.root.getByRole('heading', { name: 'Paris', level: 2 })
    await paris.waitFor()
    expect(await c.root.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['Paris', 'Lisbon'])
    expect(await axeViolations(page)).toEqual([])
    await c.button('Go to Paris').click()

    // The types [".jpg", ".png", "capture=camera"]: extensions then MIME types, and the camera asked for.
    await c.host('Paris it is.').waitFor()
    const picker = c.root.locator('input[type="file"]')
    expect(await picker.getAttribute('accept')).toBe('.jpg, .png, .jpeg, image/jpeg, image/jpg, image/png')
    expect(await picker.getAttribute('capture')).toBe('environment')
    const chooser = page.waitForEvent('filechooser')
    await c.root.getByRole('button', { name: 'Choose a file' }).click()
    // `.jpeg` is the same kind as the `.jpg` listed: the widget and the service both take it.
    await (await chooser).setFiles([{ name: 'passport.jpeg', mimeType: 'image/jpeg', buffer: JPEG }])
    await c.host('Thanks! We will be in touch.').waitFor()
    expect(await axeViolations(page)).toEqual([])
    expect(errors).toEqual([])
  })

  it('keeps the page address from scripts when the site says page-address="hidden"', async () => {
    const page = await suite.newPage()
    await open(page, 'page-address="hidden"')
    const seen = await scriptSaw(chat(page))
    expect(seen).toEqual({ href: '', origin: '', pathname: '', search: '', hash: '', referrer: '', frozen: true, own: '' })
  })
})
