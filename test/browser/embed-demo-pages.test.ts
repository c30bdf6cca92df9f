import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { bubblePage, severalInstancesPage } from '../../demo/site/embed-pages'
import type { SeededFlow } from '../../demo/site/seed'
import { animationsSettled } from './embed/embed-test-pages'
import { useBrowserSuite } from './helpers/browser-suite'
import { axeViolations, trackErrors } from './helpers/chat-page'
import { DEMO_ASSETS_DIR, type PublishedTestFlow, SHARED_FLOWS_DIR, TEST_FLOWS_DIR } from './helpers/test-service'

const suite = useBrowserSuite([join(TEST_FLOWS_DIR, 'theme-variant.json'), join(SHARED_FLOWS_DIR, 'tpl-nps.json')])
let page: Page

const seeded = (flow: PublishedTestFlow, name: string): SeededFlow => ({
  file: flow.file,
  source: 'demo',
  name,
  flowId: flow.id,
  publicId: flow.id,
  shareEnabled: false,
})

/**
 * Serves a demo page builder's HTML on the host site (another site than the service) under the
 * strict CSP, as an owner copying the page would: the widget's script from the service, the page's
 * own scripts and styles beside it.
 */
async function openDemoPage(markup: string) {
  page = await suite.newPage()
  const { host } = suite.service
  for (const [file, type] of [
    ['embed-demo.js', 'text/javascript'],
    ['demo.css', 'text/css'],
    ['host-avatar.svg', 'image/svg+xml'],
  ]) {
    host.serve(`/demo/assets/${file}`, { type: type!, body: readFileSync(join(DEMO_ASSETS_DIR, file!), 'utf8') })
  }
  const body = markup.replaceAll('src="/widget/v1/', `src="${suite.service.origin}/widget/v1/`)
  await page.goto(host.serve('/embed-demo-page', { headers: { 'Content-Security-Policy': suite.service.csp }, body }))
}

const ctx = () => ({ apiHost: suite.service.origin, publishableToken: suite.service.publishableToken })

describe('embed demo pages', () => {
  it('the bubble page: its buttons command the bubble, and its event log lists what happened', async () => {
    const colours = seeded(suite.service.flows['theme-variant.json']!, 'Colours')
    await openDemoPage(bubblePage(colours, ctx()))
    const errors = trackErrors(page)
    await page.getByRole('button', { name: 'Toggle the chat' }).click()
    const window = page.getByRole('dialog', { name: 'Theme variant' })
    await window.locator('[part~="host-bubble"]', { hasText: 'Favourite color?' }).waitFor()
    await page.locator('#embed-events li', { hasText: 'flowchat:start' }).waitFor()
    await animationsSettled(page)
    expect(await axeViolations(page)).toEqual([])
    await page.keyboard.press('Escape')
    await window.waitFor({ state: 'hidden' })
    expect(await page.locator('#embed-events li').allTextContents()).toEqual([
      'flowchat:open from flow-chat-bubble#demo-bubble',
      'flowchat:start from flow-chat-bubble#demo-bubble',
      'flowchat:close from flow-chat-bubble#demo-bubble',
    ])
    expect(errors).toEqual([])
  })

  it('the several-instances page: four chats, each command reaching its own', async () => {
    const colours = seeded(suite.service.flows['theme-variant.json']!, 'Colours')
    const survey = seeded(suite.service.flows['tpl-nps.json']!, 'Survey')
    await openDemoPage(severalInstancesPage([colours, survey, survey, colours], ctx()))
    const errors = trackErrors(page)
    await page.locator('#first-inline [part~="host-bubble"]', { hasText: 'Favourite color?' }).waitFor()
    await page.locator('#second-inline [part~="host-bubble"]', { hasText: /can I ask you 2 questions/ }).waitFor()
    await page.getByRole('button', { name: 'Toggle the bubble (Survey)' }).click()
    await page
      .locator('#several-bubble')
      .getByRole('dialog')
      .locator('[part~="host-bubble"]', { hasText: /can I ask you 2 questions/ })
      .waitFor()
    expect(await page.locator('#several-popup').getByRole('dialog').isVisible()).toBe(false)
    await page.getByRole('button', { name: 'Open the popup (Colours)' }).click()
    await page.locator('#several-popup').getByRole('dialog').locator('[part~="host-bubble"]', { hasText: 'Favourite color?' }).waitFor()
    expect(await page.locator('#several-bubble').getAttribute('open')).toBe('')
    expect(errors).toEqual([])
  })

  it('the several-instances page: "Restart the first chat" starts that chat over, and only that one', async () => {
    const colours = seeded(suite.service.flows['theme-variant.json']!, 'Colours')
    const survey = seeded(suite.service.flows['tpl-nps.json']!, 'Survey')
    await openDemoPage(severalInstancesPage([colours, survey, survey, colours], ctx()))
    const errors = trackErrors(page)
    const first = page.locator('#first-inline')
    await first.locator('[part~="host-bubble"]', { hasText: 'Favourite color?' }).waitFor()
    await first.locator('[part~="input"]').fill('Teal')
    await first.locator('[part~="input"]').press('Enter')
    await first.locator('[part~="host-bubble"]', { hasText: 'Favourite food?' }).waitFor()
    await page.locator('#second-inline [part~="host-bubble"]', { hasText: /can I ask you 2 questions/ }).waitFor()
    const secondBefore = await page.locator('#second-inline [part~="host-bubble"]').count()

    await page.getByRole('button', { name: 'Restart the first chat' }).click()
    await first.locator('[part~="host-bubble"]', { hasText: 'Favourite food?' }).waitFor({ state: 'detached' })
    await first.locator('[part~="host-bubble"]', { hasText: 'Favourite color?' }).waitFor()
    expect(await first.locator('[part~="guest-bubble"]').count()).toBe(0)
    const starts = await page.locator('#embed-events li', { hasText: 'flowchat:start from flow-chat#first-inline' }).count()
    expect(starts).toBe(2)
    expect(await page.locator('#second-inline [part~="host-bubble"]').count()).toBe(secondBefore)
    expect(errors).toEqual([])
  })
})
