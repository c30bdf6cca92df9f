import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { useBrowserSuite } from './helpers/browser-suite'
import { axeViolations, chat, trackErrors } from './helpers/chat-page'
import { TEST_FLOWS_DIR } from './helpers/test-service'

const suite = useBrowserSuite([join(TEST_FLOWS_DIR, 'remember-user.json')], async () => {
  // The browser context is shared: the next test must not resume this one's conversation.
  const cleaner = await suite.newPage()
  await cleaner.goto(`${suite.service.host.origin}/test/host.css`)
  await cleaner.evaluate(() => localStorage.clear())
  await cleaner.close()
})
let page: Page

/**
 * A page of the flow that remembers users, counting startChat requests over reloads and keeping
 * the widget's `flowchat:start` and `flowchat:log` details. `blockStorage` makes storage throw on
 * access, as browsers do with blocked cookies or in some private modes.
 */
async function openPage(options: { blockStorage?: boolean } = {}) {
  page = await suite.newPage()
  await page.addInitScript((block) => {
    const seen: { starts: unknown[]; logs: string[] } = { starts: [], logs: [] }
    ;(window as unknown as { __seen?: typeof seen }).__seen = seen
    document.addEventListener('flowchat:start', (event) => seen.starts.push((event as CustomEvent).detail))
    document.addEventListener('flowchat:log', (event) => seen.logs.push((event as CustomEvent<{ code: string }>).detail.code))
    if (block) {
      for (const name of ['localStorage', 'sessionStorage']) {
        Object.defineProperty(window, name, {
          get() {
            throw new DOMException('Access is denied for this document.', 'SecurityError')
          },
        })
      }
    }
  }, options.blockStorage === true)
  const starts: string[] = []
  page.on('request', (request) => {
    if (request.url().endsWith('/startChat')) starts.push(request.url())
  })
  const errors = trackErrors(page)
  await page.goto(suite.service.pageUrl(suite.service.flows['remember-user.json']!))
  const seen = () =>
    page.evaluate(() => (window as unknown as { __seen: { starts: Array<{ resultId: string; resumed: boolean }>; logs: string[] } }).__seen)
  return { c: chat(page), starts, errors, seen }
}

async function answerTwo(c: ReturnType<typeof chat>) {
  await c.host('What is your name?').waitFor()
  await c.say('Ada')
  await c.host('Favourite color?').waitFor()
  await c.say('blue')
  await c.host('Favourite food?').waitFor()
}

describe('remembered users', () => {
  it('a reload shows the same conversation and finishes it with one session', async () => {
    const { c, starts, errors, seen } = await openPage()
    await answerTwo(c)
    const before = await c.root.locator('[part~="bubble"]').allTextContents()
    const { resultId } = (await seen()).starts[0]!

    await page.reload()
    await c.host('Favourite food?').waitFor()
    expect(await c.root.locator('[part~="bubble"]').allTextContents()).toEqual(before)
    expect(await c.guestBubbles.allTextContents()).toEqual(['Ada', 'blue'])
    expect((await seen()).starts).toEqual([expect.objectContaining({ resultId, resumed: true })])
    expect(await axeViolations(page)).toEqual([])

    await c.say('pasta')
    // Name and colour were answered before the reload: the same session still knows them.
    await c.host('Thanks Ada: blue and pasta noted.').waitFor()
    expect(starts).toHaveLength(1)
    const answers = (await suite.service.store().results.listAnswers(resultId)).map((answer) => answer.value)
    expect(answers).toEqual(['Ada', 'blue', 'pasta'])
    expect(errors).toEqual([])
  })

  it('an answer whose reply was lost to a reload is applied once, not lost and not twice', async () => {
    const { c, starts, seen } = await openPage()
    await c.host('What is your name?').waitFor()
    const keys: string[] = []
    page.on('request', (request) => {
      if (request.url().endsWith('/continueChat')) keys.push(request.headers()['idempotency-key'] ?? '')
    })
    // The suite.service receives and applies the answer, but the page never sees the reply.
    let reached!: () => void
    const applied = new Promise<void>((resolve) => (reached = resolve))
    let intercepted = 0
    await page.route('**/continueChat', async (route) => {
      if (++intercepted > 1) return route.continue()
      await route.fetch()
      reached() // and the reply is never handed to the page
    })
    await c.say('Ada')
    await applied
    await page.reload()

    await c.host('Favourite color?').waitFor()
    expect(await c.guestBubbles.allTextContents()).toEqual(['Ada'])
    expect(keys).toHaveLength(2)
    expect(new Set(keys).size).toBe(1)
    expect(starts).toHaveLength(1)
    const { resultId } = (await seen()).starts[0]!
    expect((await suite.service.store().results.listAnswers(resultId)).map((answer) => answer.value)).toEqual(['Ada'])
  })

  it('after the flow was republished, a reload starts a new conversation with a notice', async () => {
    const { c, starts, seen } = await openPage()
    await answerTwo(c)
    await suite.service.republish(suite.service.flows['remember-user.json']!)
    await page.reload()
    await c.host('What is your name?').waitFor()
    expect(await c.guestBubbles.count()).toBe(0)
    expect(await c.root.locator('[part="restart-notice"]').textContent()).toMatch(/updated since your last visit/)
    const [first, second] = (await seen()).starts
    expect(second).toBeUndefined()
    expect(first).toMatchObject({ resumed: false, restartedBecause: 'republished' })
    expect(starts).toHaveLength(2)
    expect(await axeViolations(page)).toEqual([])
  })

  it('keeps the conversation when the visitor comes back after it ended, and reset() starts over', async () => {
    const { c, starts } = await openPage()
    await answerTwo(c)
    await c.say('soup')
    await c.host('Thanks Ada: blue and soup noted.').waitFor()
    await page.reload()
    await c.host('Thanks Ada: blue and soup noted.').waitFor()
    expect(starts).toHaveLength(1)
    expect(await c.root.locator('[part~="input"]').count()).toBe(0)

    await page.evaluate(() => document.querySelector('flow-chat')!.reset())
    await expect.poll(() => c.guestBubbles.count()).toBe(0)
    await c.host('What is your name?').waitFor()
    expect(starts).toHaveLength(2)
  })

  it('with storage that throws, the chat works, logs once, and reload() resumes from page memory', async () => {
    const { c, starts, errors, seen } = await openPage({ blockStorage: true })
    await answerTwo(c)
    expect((await seen()).logs.filter((code) => code === 'storage-unavailable')).toHaveLength(1)

    await page.evaluate(() => document.querySelector('flow-chat')!.reload())
    await expect.poll(async () => (await seen()).starts.length).toBe(2)
    await c.host('Favourite food?').waitFor()
    expect(await c.guestBubbles.allTextContents()).toEqual(['Ada', 'blue'])
    await c.say('rice')
    await c.host('Thanks Ada: blue and rice noted.').waitFor()
    expect(starts).toHaveLength(1)

    // A new page load has nothing to resume from: a fresh conversation, still without errors.
    await page.reload()
    await c.host('What is your name?').waitFor()
    expect(await c.guestBubbles.count()).toBe(0)
    expect(starts).toHaveLength(2)
    expect(errors).toEqual([])
  })
})
