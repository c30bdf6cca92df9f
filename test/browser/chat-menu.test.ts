import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { useBrowserSuite } from './helpers/browser-suite'
import { axeViolations, chat, trackErrors } from './helpers/chat-page'
import { TEST_FLOWS_DIR } from './helpers/test-service'

/**
 * The chat's menu on a site's page (another origin than the service): a menu button used by
 * keyboard, Start over (a new result, announced), the transcript's downloads holding every
 * message in order, `flowchat:end` with the transcript; and a remembered anonymous conversation
 * that expired starting over with a notice.
 */
const suite = useBrowserSuite([join(TEST_FLOWS_DIR, 'remember-user.json'), join(TEST_FLOWS_DIR, 'identity-expiry.json')], async () => {
  const cleaner = await suite.newPage()
  await cleaner.goto(`${suite.service.host.origin}/test/host.css`)
  await cleaner.evaluate(() => localStorage.clear())
  await cleaner.close()
})

/** The page of `flow`, keeping the widget's events. */
async function open(page: Page, flow: string) {
  await page.addInitScript(() => {
    const events: Array<{ type: string; detail: any }> = []
    ;(window as unknown as { __events: unknown[] }).__events = events
    for (const type of ['flowchat:start', 'flowchat:end', 'flowchat:error'])
      document.addEventListener(type, (event) => events.push({ type, detail: (event as CustomEvent).detail }))
  })
  const errors = trackErrors(page)
  await page.goto(suite.service.pageUrl(suite.service.flows[flow]!))
  const events = () => page.evaluate(() => (window as unknown as { __events: Array<{ type: string; detail: any }> }).__events)
  return { c: chat(page), errors, events }
}

/** Which element has focus, through the widget's shadow root: its role and accessible text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.querySelector('flow-chat')?.shadowRoot?.activeElement
    return active
      ? `${active.getAttribute('role') ?? active.tagName.toLowerCase()}: ${active.getAttribute('aria-label') ?? active.textContent}`
      : ''
  })

const ANSWER = '<script>alert(1)</script> & "Ada"'

describe('the chat menu', () => {
  it('opens, moves and closes by keyboard as a menu button, and downloads a transcript of every message in order', async () => {
    const page = await suite.newPage()
    const { c, errors, events } = await open(page, 'remember-user.json')
    await c.host('What is your name?').waitFor()
    await c.say(ANSWER)
    await c.host('Favourite color?').waitFor()
    await c.say('Blue')
    await c.host('Favourite food?').waitFor()
    await c.say('Rice')
    await c.host(/Thanks/).waitFor()
    await expect.poll(async () => (await events()).filter((event) => event.type === 'flowchat:end')).toHaveLength(1)

    // flowchat:end carries the transcript: every message, in order, with times.
    const end = (await events()).find((event) => event.type === 'flowchat:end')!
    expect(end.detail.transcript.map((line: { from: string; text: string }) => `${line.from}: ${line.text}`)).toEqual([
      'flow: What is your name?',
      `visitor: ${ANSWER}`,
      'flow: Favourite color?',
      'visitor: Blue',
      'flow: Favourite food?',
      'visitor: Rice',
      `flow: Thanks ${ANSWER}: Blue and Rice noted.`,
    ])
    for (const line of end.detail.transcript) expect(Number.isNaN(Date.parse(line.at))).toBe(false)

    const button = c.root.getByRole('button', { name: 'Chat menu' })
    await expect.poll(() => button.getAttribute('aria-haspopup')).toBe('menu')
    await button.focus()
    await page.keyboard.press('ArrowDown')
    const menu = c.root.getByRole('menu', { name: 'Chat menu' })
    await menu.waitFor()
    await expect.poll(() => focused(page)).toBe('menuitem: Start over')
    expect(await button.getAttribute('aria-expanded')).toBe('true')
    expect(await focused(page)).toBe('menuitem: Start over')
    expect(await axeViolations(page)).toEqual([])
    await page.keyboard.press('ArrowDown')
    expect(await focused(page)).toBe('menuitem: Download transcript (text)')
    await page.keyboard.press('End')
    expect(await focused(page)).toBe('menuitem: Download transcript (printable page)')
    await page.keyboard.press('ArrowDown')
    expect(await focused(page)).toBe('menuitem: Start over')
    await page.keyboard.press('ArrowUp')
    expect(await focused(page)).toBe('menuitem: Download transcript (printable page)')
    await page.keyboard.press('Escape')
    await menu.waitFor({ state: 'detached' })
    expect(await focused(page)).toBe('button: Chat menu')
    expect(await button.getAttribute('aria-expanded')).toBe('false')

    // The text file: a line per message, in order, each with its time.
    await page.keyboard.press('Enter')
    await expect.poll(() => focused(page)).toBe('menuitem: Start over')
    await page.keyboard.press('ArrowDown')
    expect(await focused(page)).toBe('menuitem: Download transcript (text)')
    const [textDownload] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')])
    expect(textDownload.suggestedFilename()).toMatch(/^chat-transcript-\d{4}-\d{2}-\d{2}\.txt$/)
    const text = await readFile((await textDownload.path())!, 'utf8')
    const lines = text.trim().split('\n')
    expect(lines[0]).toBe('Conversation transcript: Remember user')
    expect(lines.slice(2).map((line) => line.replace(/^\[[^\]]+\] /, ''))).toEqual([
      'Remember user: What is your name?',
      `You: ${ANSWER}`,
      'Remember user: Favourite color?',
      'You: Blue',
      'Remember user: Favourite food?',
      'You: Rice',
      `Remember user: Thanks ${ANSWER}: Blue and Rice noted.`,
    ])
    expect(lines.slice(2).every((line) => /^\[.*\d.*\] /.test(line))).toBe(true)
    expect(await focused(page)).toBe('button: Chat menu')

    // The printable page: every text escaped, no script, the same messages in order.
    await button.click()
    const [pageDownload] = await Promise.all([
      page.waitForEvent('download'),
      c.root.getByRole('menuitem', { name: /printable page/ }).click(),
    ])
    const html = await readFile((await pageDownload.path())!, 'utf8')
    expect(html).not.toMatch(/<script/i)
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Ada&quot;')
    const printable = await suite.newPage()
    const printErrors = trackErrors(printable)
    await printable.setContent(html)
    expect(await printable.locator('li .text').allTextContents()).toEqual([
      'What is your name?',
      ANSWER,
      'Favourite color?',
      'Blue',
      'Favourite food?',
      'Rice',
      `Thanks ${ANSWER}: Blue and Rice noted.`,
    ])
    expect(await printable.evaluate(() => (window as unknown as { alerted?: boolean }).alerted)).toBeUndefined()
    expect(await axeViolations(printable)).toEqual([])
    expect(printErrors).toEqual([])
    expect(errors).toEqual([])
  })

  it('starts over at the visitor’s request: a new result, the old one kept, announced politely', async () => {
    const page = await suite.newPage()
    const { c, errors, events } = await open(page, 'remember-user.json')
    await c.host('What is your name?').waitFor()
    await c.say('Grace')
    await c.host('Favourite color?').waitFor()
    await c.root.getByRole('button', { name: 'Chat menu' }).click()
    await c.root.getByRole('menuitem', { name: 'Start over' }).click()
    await c.root.locator('[part~="live-region"]').getByText('Started over.').waitFor()
    await c.root.locator('[part~="restart-notice"]').getByText('Started over.').waitFor()
    await c.host('What is your name?').waitFor()
    expect(await c.guestBubbles.count()).toBe(0)
    expect(await axeViolations(page)).toEqual([])
    const starts = (await events()).filter((event) => event.type === 'flowchat:start').map((event) => event.detail)
    expect(starts).toHaveLength(2)
    expect(starts[1]).toMatchObject({ resumed: false, restartedBecause: 'requested' })
    expect(starts[1].resultId).not.toBe(starts[0].resultId)
    const results = await suite.service.store().results.page(suite.service.flows['remember-user.json']!.id, {}, undefined, 50)
    const ids = results.map((result) => result.id)
    expect(ids).toContain(starts[0].resultId)
    expect(ids).toContain(starts[1].resultId)
    // A reload goes on with the new conversation, not the one left behind.
    await page.reload()
    await c.host('What is your name?').waitFor()
    expect(await c.guestBubbles.count()).toBe(0)
    expect(errors).toEqual([])
  })
})

describe('a remembered anonymous conversation', () => {
  it('that expired starts a new one after a reload, with the expired notice and no error', async () => {
    const page = await suite.newPage()
    const { c, errors, events } = await open(page, 'identity-expiry.json')
    await c.host('What is your name?').waitFor()
    await c.say('Grace')
    await c.host('Favourite color?').waitFor()
    // The flow's conversations expire after 0.0005 hours (1.8 s) idle.
    await new Promise((resolve) => setTimeout(resolve, 2_500))
    await page.reload()
    await c.root.getByText('Your previous conversation had expired, so a new one has started.').waitFor()
    await c.host('What is your name?').waitFor()
    expect(await c.guestBubbles.count()).toBe(0)
    expect(await axeViolations(page)).toEqual([])
    const after = await events()
    expect(after.filter((event) => event.type === 'flowchat:error')).toEqual([])
    expect(after.find((event) => event.type === 'flowchat:start')?.detail).toMatchObject({ resumed: false, restartedBecause: 'expired' })
    expect(errors).toEqual([])
  })
})
