import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTeamApiServer, type TeamApiServer } from '../../admin/helpers/team-api-server'
import { axeViolations, trackErrors } from '../helpers/chat-page'
import { type LaunchedBrowser, launchChromium } from '../helpers/chromium'
import { DIST_DIR } from '../helpers/test-service'

/**
 * The built console's inbox in Chromium, by keyboard alone: a person signs in with their agent
 * token, hears of a new conversation, claims it, answers, and ends it, with focus always visible,
 * and axe (colour contrast included) clean on the open conversation. The team API is the
 * contract's stand-in on loopback (test/admin/helpers/team-api-server.ts); the walk with a visitor's
 * widget and the service's own routes is the service's inbox test.
 */
let browser: LaunchedBrowser
let server: TeamApiServer
beforeAll(async () => {
  ;[browser, server] = await Promise.all([launchChromium(), startTeamApiServer({ consoleDir: join(DIST_DIR, 'admin') })])
})
afterAll(async () => {
  await Promise.all([browser?.close(), server?.close()])
})

/** What has focus: its text (or its label, for a field), and whether its outline shows. */
const focus = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null
    const style = element ? getComputedStyle(element) : null
    const label = element?.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : undefined
    return {
      name: (label ?? element?.textContent ?? '').trim(),
      outlined: style !== null && style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2,
    }
  })

/** Presses Tab until `name` has focus (at most `limit` times), checking each stop shows its focus. */
async function tabTo(page: Page, name: string | RegExp, limit = 30): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab')
    const now = await focus(page)
    if (typeof name === 'string' ? now.name === name : name.test(now.name)) {
      expect(now.outlined, `focus on ${now.name} is visible`).toBe(true)
      return
    }
  }
  throw new Error(`Tab never reached ${String(name)}`)
}

describe('the inbox by keyboard, in the built console', () => {
  it('signs in with an agent token, claims a new conversation, answers and ends it, with visible focus and axe clean', async () => {
    const page = await browser.context.newPage()
    const errors = trackErrors(page)
    await page.goto(`${server.origin}/admin`)
    await page.getByLabel('Secret token or agent token').waitFor()
    await page.keyboard.type(server.agents[0]!.value)
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { level: 1, name: 'Team inbox' }).waitFor()
    await page.getByText('Up to date').waitFor()

    const handoff = server.handOver('Support', {
      transcript: [{ author: 'visitor', text: 'Where is my parcel?' }],
      variables: [{ id: 'v1', name: 'Order', value: 'A-1234' }],
    })
    await page.getByRole('button', { name: /New Support/ }).waitFor()
    await expect(page.getByRole('log').textContent()).resolves.toBe('A new conversation is waiting: Support.')
    await expect(page.title()).resolves.toBe('(1) Flow console')

    await tabTo(page, /Support/)
    await page.keyboard.press('Enter')
    await page.getByRole('button', { name: 'Claim the conversation' }).waitFor()
    expect((await focus(page)).name).toBe('Support')
    await tabTo(page, 'Claim the conversation')
    await page.keyboard.press('Enter')
    await tabTo(page, 'Reply to the visitor')
    await page.keyboard.type('Hello, I am Ada. Let me look.')
    await page.keyboard.press('Enter')
    const transcript = page.getByRole('region', { name: 'Transcript' })
    await transcript.getByText('Hello, I am Ada. Let me look.').waitFor()

    server.visitorSays(handoff.id, 'Thank you!')
    await transcript.getByText('Thank you!').waitFor()
    await expect(page.getByRole('log').getByText('Visitor: Thank you!').count()).resolves.toBe(1)
    expect(await axeViolations(page)).toEqual([])

    await tabTo(page, 'End the conversation')
    await page.keyboard.press('Enter')
    expect((await focus(page)).name).toBe('Cancel')
    await page.keyboard.press('Shift+Tab')
    expect((await focus(page)).name).toBe('End it')
    await page.keyboard.press('Enter')
    await transcript.getByText('The conversation ended.').waitFor()
    expect(server.conversation(handoff.id).summary.status).toBe('ended')
    expect(errors).toEqual([])
  })
})
