import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { useBrowserSuite } from './helpers/browser-suite'
import { axeViolations, chat, trackErrors } from './helpers/chat-page'
import { SHARED_FLOWS_DIR, TEST_FLOWS_DIR } from './helpers/test-service'

const suite = useBrowserSuite([join(TEST_FLOWS_DIR, 'theme-variant.json'), join(SHARED_FLOWS_DIR, 'tpl-nps.json')])
let page: Page

/** Records CSP violations from the moment the page starts. */
async function newPage() {
  page = await suite.newPage()
  await page.addInitScript(() => {
    const seen: string[] = ((window as { __violations?: string[] }).__violations = [])
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`))
  })
  return page
}
const violations = () => page.evaluate(() => (window as { __violations?: string[] }).__violations ?? [])

describe('embedding on a host page', () => {
  it('works from the classic script included twice, under a strict CSP, adding only the FlowChat global', async () => {
    await newPage()
    const errors = trackErrors(page)
    await page.goto(suite.service.pageUrl(suite.service.flows['theme-variant.json']!, { twice: true }))
    const c = chat(page)
    await c.host('Favourite color?').waitFor()
    expect(await page.locator('flow-chat').count()).toBe(1)
    expect(await c.hostBubbles.count()).toBe(1)
    const globals = await page.evaluate(() => {
      const frame = document.createElement('iframe')
      document.body.append(frame)
      const pristine = new Set(Object.getOwnPropertyNames(frame.contentWindow!))
      frame.remove()
      return Object.getOwnPropertyNames(window).filter((name) => !pristine.has(name))
    })
    expect(globals).toEqual(['FlowChat'])
    expect(await page.evaluate(() => typeof (window as { FlowChat?: { defineFlowChat?: unknown } }).FlowChat?.defineFlowChat)).toBe(
      'function',
    )
    await c.say('blue')
    await c.host('Favourite food?').waitFor()
    expect(await violations()).toEqual([])
    expect(errors).toEqual([])
  })

  it('works from the ES module build', async () => {
    await newPage()
    const errors = trackErrors(page)
    await page.goto(suite.service.pageUrl(suite.service.flows['theme-variant.json']!, { module: true }))
    const c = chat(page)
    await c.host('Favourite color?').waitFor()
    await c.say('red')
    await c.host('Favourite food?').waitFor()
    expect(await violations()).toEqual([])
    expect(errors).toEqual([])
  })

  it('restarts cleanly on a new flow attribute and goes quiet when removed', async () => {
    await newPage()
    const requests: string[] = []
    page.on('request', (request) => requests.push(request.url()))
    await page.goto(suite.service.pageUrl(suite.service.flows['theme-variant.json']!))
    const c = chat(page)
    await c.host('Favourite color?').waitFor()
    const nps = suite.service.flows['tpl-nps.json']!
    await page.locator('flow-chat').evaluate((element, id) => element.setAttribute('flow', id), nps.id)
    await c.host(/can I ask you 2 questions/).waitFor()
    expect(await c.root.locator('[part~="host-bubble"]', { hasText: 'Favourite color?' }).count()).toBe(0)
    expect(await axeViolations(page)).toEqual([])
    await page.locator('flow-chat').evaluate((element) => element.remove())
    const before = requests.length
    await page.waitForTimeout(1500)
    expect(requests.slice(before)).toEqual([])
  })
})
