import { createHmac } from 'node:crypto'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { useBrowserSuite } from './helpers/browser-suite'
import { axeViolations, chat, trackErrors } from './helpers/chat-page'
import { type LaunchedBrowser, launchChromium } from './helpers/chromium'
import { TEST_FLOWS_DIR } from './helpers/test-service'

/**
 * A signed-in visitor on the site's page (another origin than the service), the site's server
 * having written `user-id` and `user-hash`: their conversation follows them to another browser
 * (another "device": a second Chromium profile); a forged or missing hash is refused and the
 * conversation goes on anonymously, the page told why.
 */
const suite = useBrowserSuite([join(TEST_FLOWS_DIR, 'remember-user.json'), join(TEST_FLOWS_DIR, 'identity-expiry.json')], async () => {
  // The browser context is shared: the next test must not resume this one's conversation from storage.
  const cleaner = await suite.newPage()
  await cleaner.goto(`${suite.service.host.origin}/test/host.css`)
  await cleaner.evaluate(() => localStorage.clear())
  await cleaner.close()
})
let secret: string
let other: LaunchedBrowser | undefined

beforeAll(async () => {
  const response = await fetch(`${suite.service.origin}/v1/identity-secrets`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${suite.service.secretToken}` },
  })
  secret = ((await response.json()) as { secret: string }).secret
})
afterEach(async () => {
  await other?.close()
  other = undefined
})

/** What the site's server computes for its signed-in user. */
const sign = (id: string) => createHmac('sha256', secret).update(id).digest('hex')

/** The page of `flow` for `user` in a new page of `browser`'s context, keeping the widget's logs. */
async function open(page: Page, flow: string, user: { userId?: string; userHash?: string }) {
  await page.addInitScript(() => {
    const logs: unknown[] = []
    ;(window as unknown as { __logs: unknown[] }).__logs = logs
    document.addEventListener('flowchat:log', (event) => logs.push((event as CustomEvent).detail))
  })
  const errors = trackErrors(page)
  await page.goto(suite.service.pageUrl(suite.service.flows[flow]!, user))
  const logs = () => page.evaluate(() => (window as unknown as { __logs: Array<{ code: string; details?: any }> }).__logs)
  return { c: chat(page), errors, logs }
}

describe('an identified visitor', () => {
  it('goes on in a second browser at the step they left, and each answer is recorded once', async () => {
    const user = { userId: 'ada@example.com', userHash: sign('ada@example.com') }
    const laptop = await open(await suite.newPage(), 'remember-user.json', user)
    await laptop.c.host('What is your name?').waitFor()
    await laptop.c.say('Ada')
    await laptop.c.host('Favourite color?').waitFor()

    other = await launchChromium()
    const phonePage = await other.context.newPage()
    const phone = await open(phonePage, 'remember-user.json', user)
    await phone.c.host('Favourite color?').waitFor()
    expect(await phone.c.root.getByText('What is your name?').count()).toBe(0)
    await phone.c.say('blue')
    await phone.c.host('Favourite food?').waitFor()
    expect(await axeViolations(phonePage)).toEqual([])

    const results = await suite.service
      .store()
      .results.page(suite.service.flows['remember-user.json']!.id, { userId: user.userId }, undefined, 10)
    expect(results).toHaveLength(1)
    expect((await suite.service.store().results.listAnswers(results[0]!.id)).map((a) => a.value)).toEqual(['Ada', 'blue'])
    expect(laptop.errors).toEqual([])
    expect(phone.errors).toEqual([])
  })

  it('whose conversation expired starts a new one in another browser, with a notice', async () => {
    const user = { userId: 'grace', userHash: sign('grace') }
    const first = await open(await suite.newPage(), 'identity-expiry.json', user)
    await first.c.host('What is your name?').waitFor()
    await first.c.say('Grace')
    await first.c.host('Favourite color?').waitFor()
    // The flow's conversations expire after 0.0005 hours (1.8 s) idle.
    await new Promise((resolve) => setTimeout(resolve, 2_500))

    other = await launchChromium()
    const page = await other.context.newPage()
    const second = await open(page, 'identity-expiry.json', user)
    await second.c.root.getByText('Your previous conversation had expired, so a new one has started.').waitFor()
    await second.c.host('What is your name?').waitFor()
    expect(await axeViolations(page)).toEqual([])
    const results = await suite.service
      .store()
      .results.page(suite.service.flows['identity-expiry.json']!.id, { userId: 'grace' }, undefined, 10)
    expect(results).toHaveLength(2)
  })
})

describe('a forged or missing hash', () => {
  for (const [what, user, reason] of [
    ['a hash signed for someone else', { userId: 'ada@example.com', userHash: '' }, 'hash_mismatch'],
    ['no user-hash at all', { userId: 'ada@example.com' }, 'invalid_hash'],
  ] as const) {
    it(`is refused (${what}): the conversation goes on anonymously and the page is told why`, async () => {
      const forged = what === 'no user-hash at all' ? user : { ...user, userHash: sign('mallory') }
      const page = await suite.newPage()
      const visit = await open(page, 'remember-user.json', forged)
      await visit.c.host('What is your name?').waitFor()
      await visit.c.say('Mallory')
      await visit.c.host('Favourite color?').waitFor()
      expect(await visit.logs()).toContainEqual(
        expect.objectContaining({ code: 'service-log', details: { code: 'identity-refused', reason } }),
      )
      const flowId = suite.service.flows['remember-user.json']!.id
      const mine = await suite.service.store().results.page(flowId, {}, undefined, 50)
      // Nothing of it is anyone's: the only result of Ada is her own conversation from the test above.
      expect(mine.filter((r) => r.userId === 'ada@example.com')).toHaveLength(1)
      expect(visit.errors).toEqual([])
    })
  }
})
