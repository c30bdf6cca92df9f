import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { attributes } from './embed/embed-test-pages'
import { useBrowserSuite } from './helpers/browser-suite'
import { axeViolations } from './helpers/chat-page'
import { SHARED_FLOWS_DIR } from './helpers/test-service'

// A page that embeds the chat wrongly (a flow id that is no flow of the token's workspace, a
// token the service does not know), on a host site of its own: the visitor reads calmly that the
// chat is not set up, with nothing to try again and no empty box; the owner reads what to fix;
// nothing starts a conversation the set-up cannot hold.

const suite = useBrowserSuite([join(SHARED_FLOWS_DIR, 'tpl-nps.json')])

let pages = 0
async function open(page: Page, body: string) {
  const url = suite.service.host.serve(`/set-up/${++pages}`, {
    headers: { 'Content-Security-Policy': suite.service.csp },
    body: `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop</title>
<script src="${suite.service.script}" defer></script></head>
<body><main><h1>A shop</h1><p>Our products.</p>${body}</main></body>
</html>`,
  })
  await page.goto(url)
}

/** The page's requests that matter here, in the order the browser made and heard them. */
function requests(page: Page): string[] {
  const seen: string[] = []
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/startChat')) seen.push('startChat')
  })
  page.on('response', (response) => {
    if (response.url().includes('/publishedFlow')) seen.push(`publishedFlow ${response.status()}`)
  })
  return seen
}

/** What the console said, errors only. */
function consoleErrors(page: Page): string[] {
  const said: string[] = []
  page.on('console', (message) => void (message.type() === 'error' && said.push(message.text())))
  return said
}

const chatAttributes = (flow: string, token = suite.service.publishableToken) =>
  attributes({ flow, 'api-host': suite.service.origin, token })

const notice = (page: Page) => page.locator('flow-chat [part~="notice"]')

describe('a set-up mistake, on a page of another site', () => {
  it('an unknown flow: a calm notice in a box its own size, no retry, no startChat after the 404, and the owner reads what to fix', async () => {
    const page = await suite.newPage()
    const seen = requests(page)
    const said = consoleErrors(page)
    await open(page, `<flow-chat ${chatAttributes('no-such-flow')}></flow-chat>`)
    await notice(page).getByText('This chat is not set up yet.').waitFor()
    expect(await notice(page).getAttribute('role')).toBe('status')
    const chat = page.locator('flow-chat')
    expect(await chat.getByRole('button').count()).toBe(0)
    expect(await chat.getByRole('region').count()).toBe(0)
    // The box is the notice's, not 600 px of nothing above it; the page can style that state too.
    expect(await chat.evaluate((element) => element.matches(':state(unavailable)'))).toBe(true)
    expect((await chat.boundingBox())!.height).toBeLessThan(150)
    expect(said).toContainEqual(
      expect.stringMatching(
        /^\[flow-chat\] This chat is not set up: No flow [^.]*\. Check the chat's flow: the id or public id of a flow of the token's workspace\. \(flow-not-found\)/,
      ),
    )
    // Starting again (as a Try again button did) asks the service nothing, and starts no chat.
    await chat.evaluate((element) => (element as HTMLElement & { reset(): void }).reset())
    await chat.evaluate((element) => (element as HTMLElement & { reload(): void }).reload())
    await notice(page).getByText('This chat is not set up yet.').waitFor()
    const refused = seen.indexOf('publishedFlow 404')
    expect(refused).toBeGreaterThanOrEqual(0)
    expect(seen.slice(refused + 1)).toEqual([])
    expect(seen.filter((request) => request.startsWith('publishedFlow'))).toEqual(['publishedFlow 404'])
    expect(await axeViolations(page)).toEqual([])
  })

  it('an unknown flow behind a bubble: opening it starts no chat after the launcher read the 404, and shows the notice alone', async () => {
    const page = await suite.newPage()
    const seen = requests(page)
    await open(page, `<flow-chat-bubble ${chatAttributes('no-such-flow')}></flow-chat-bubble>`)
    await page.getByRole('button', { name: 'Open chat: Chat' }).click()
    await notice(page).getByText('This chat is not set up yet.').waitFor()
    expect(seen).toEqual(['publishedFlow 404'])
    const window = page.locator('flow-chat-bubble')
    // Only the window's own controls: nothing to try again.
    expect(await window.getByRole('button', { name: /try again|retry/i }).count()).toBe(0)
    expect(await page.locator('flow-chat').getByRole('button').count()).toBe(0)
    expect(await axeViolations(page)).toEqual([])
  })

  it('a token the service does not know: the same calm notice, and the console names the token as what to fix', async () => {
    const page = await suite.newPage()
    const said = consoleErrors(page)
    await open(page, `<flow-chat ${chatAttributes(suite.service.flows['tpl-nps.json']!.publicId, 'fs_pk_unknown')}></flow-chat>`)
    await notice(page).getByText('This chat is not set up yet.').waitFor()
    expect(await page.locator('flow-chat').getByRole('button').count()).toBe(0)
    expect(said).toContainEqual(expect.stringMatching(/^\[flow-chat\] This chat is not set up: .*Check the chat's token.*\(not-set-up\)/))
  })
})
