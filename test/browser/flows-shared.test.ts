import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { useBrowserSuite } from './helpers/browser-suite'
import { axeViolations, chat, trackErrors } from './helpers/chat-page'
import { SHARED_FLOWS_DIR } from './helpers/test-service'

/** Whole real flows, typed and clicked as a visitor would, take a while with typing emulation on. */
const FLOW_TEST_MS = 150_000
/** How long a poll waits for the next step: bubbles come with emulated typing time. */
const POLL = { timeout: 15_000 }
const SHARED_FLOWS = ['test-chat-main.json', 'tpl-lead-scoring.json', 'tpl-nps.json', 'tpl-product-recommendation.json']

const suite = useBrowserSuite(SHARED_FLOWS.map((file) => join(SHARED_FLOWS_DIR, file)))
let page: Page

async function open(file: string) {
  page = await suite.newPage()
  // Bubbles fade in; axe would measure contrast mid-fade. Visitors who ask for less motion get none.
  await page.emulateMedia({ reducedMotion: 'reduce' })
  const dialogs: string[] = []
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message())
    await dialog.dismiss()
  })
  const errors = trackErrors(page)
  await page.goto(suite.service.pageUrl(suite.service.flows[file]!))
  return { c: chat(page), errors, dialogs }
}

/** The conversation is over: no input left to answer and nothing more is typed. */
async function expectEnded(c: ReturnType<typeof chat>) {
  await expect.poll(() => c.root.locator('[part~="input-row"]').count(), POLL).toBe(0)
  await expect.poll(() => c.root.locator('[part~="typing"]').count(), POLL).toBe(0)
}

/**
 * test-chat-main's own theme puts white text on #FF8E21 guest bubbles (2.3:1). The widget renders
 * an author's colours faithfully, so that one finding belongs to the flow; anything else counts.
 */
function withoutAuthorGuestContrast(violations: string[]): string[] {
  return violations.filter((violation) => {
    if (!violation.startsWith('color-contrast:')) return true
    const targets = JSON.parse(violation.slice(violation.indexOf(' at [') + 4)) as string[][]
    return !targets.every((target) => target.join(' ').includes('guest-bubble'))
  })
}

const lastHostText = (c: ReturnType<typeof chat>) => c.hostBubbles.last().textContent()

describe('the shared real flows, walked to their end in Chromium', () => {
  it(
    'test-chat-main: name, age, an e-mail and a URL each retried once, then a choice',
    async () => {
      const { c, errors, dialogs } = await open('test-chat-main.json')
      await c.host("Welcome. What's your name?").waitFor()
      expect(withoutAuthorGuestContrast(await axeViolations(page))).toEqual([])
      await c.say('Ada')
      await c.host('Nice to meet you Ada').waitFor()
      await c.host('How old are you?').waitFor()
      // The GIF from an offline CDN: an image until it fails, then a bubble that says so; never a link.
      const gif = c.root.locator('.media[part~="host-bubble"]').first()
      const imageOrFallback = async () =>
        (await gif.locator('img[src^="https://media2.giphy.com/"]').count()) + (await gif.getByText('Image unavailable').count())
      await expect.poll(imageOrFallback, POLL).toBe(1)
      expect(await gif.locator('a').count()).toBe(0)
      expect(await c.input.getAttribute('type')).toBe('number')
      await c.say('30')
      await c.host('My magic number is 42').waitFor()
      await c.host("I'm gonna shoot multiple inputs now...").waitFor()

      expect(await c.input.getAttribute('type')).toBe('email')
      await c.say('ada@')
      await c.host("This email doesn't seem to be valid. Can you type it again?").waitFor()
      // The retry keeps the same input with the rejected answer ready to correct.
      await expect.poll(() => c.input.inputValue(), POLL).toBe('ada@')
      expect(await c.input.getAttribute('type')).toBe('email')
      await c.say('ada@example.com')

      await expect.poll(() => c.input.getAttribute('type'), POLL).toBe('url')
      await c.say('not a url')
      await c.host("This URL doesn't seem to be valid. Can you type it again?").waitFor()
      await expect.poll(() => c.input.inputValue(), POLL).toBe('not a url')
      await c.say('example.com')

      await c.choose('Yes')
      await c.host("Let's trigger a webhook...").waitFor()
      await expectEnded(c)
      expect(await lastHostText(c)).toBe("Let's trigger a webhook...")
      expect(await c.guestBubbles.allTextContents()).toEqual([
        'Ada',
        '30',
        'ada@',
        'ada@example.com',
        'not a url',
        'https://example.com',
        'Yes',
      ])
      expect(withoutAuthorGuestContrast(await axeViolations(page))).toEqual([])
      expect(errors).toEqual([])
      expect(dialogs).toEqual([])
    },
    FLOW_TEST_MS,
  )

  it(
    'tpl-lead-scoring: no company, a designer in the United States ends as not qualified',
    async () => {
      const { c, errors } = await open('tpl-lead-scoring.json')
      await c.host('Do you work with a specific company?').waitFor()
      await c.choose('No')
      await c.host("What's your job role?").waitFor()
      expect(await axeViolations(page)).toEqual([])
      await c.choose('UI/UX Designer')
      await c.host('Where are you based?').waitFor()
      await c.say('United States')
      await c.host('Bye bye 👋').waitFor()
      await expectEnded(c)
      expect(await lastHostText(c)).toBe('Bye bye 👋')
      expect(await c.guestBubbles.allTextContents()).toEqual(['No', 'UI/UX Designer', 'United States'])
      expect(await axeViolations(page)).toEqual([])
      expect(errors).toEqual([])
    },
    FLOW_TEST_MS,
  )

  it(
    'tpl-nps: a one-click rating of 7 and a long answer end with the cheerful goodbye',
    async () => {
      const { c, errors } = await open('tpl-nps.json')
      await c.host('can I ask you 2 questions?').waitFor()
      await c.choose('Sure!')
      await c.host('How likely will you recommend our product to a friend or colleague?').waitFor()
      const rating = c.root.getByRole('group', { name: 'Rating' })
      await rating.getByRole('button', { name: '0', exact: true }).waitFor()
      expect(await c.root.getByText('Very unlikely').count()).toBe(1)
      expect(await c.root.getByText('Very likely').count()).toBe(1)
      expect(await axeViolations(page)).toEqual([])
      // One click answers: there is no separate send button.
      expect(await c.root.locator('[part~="send-button"]').count()).toBe(0)
      await rating.getByRole('button', { name: '7', exact: true }).click()
      await c.host('Could you tell us why?').waitFor()
      // A long answer: Shift+Enter breaks the line, Enter sends.
      const field = c.root.locator('textarea[part~="input"]')
      await field.fill('It is fine')
      await field.press('Shift+Enter')
      await field.pressSequentially('but slow')
      await field.press('Enter')
      await c.host('Have a beautiful day!').waitFor()
      await expectEnded(c)
      // The flow ends on a GIF from an offline CDN: the bubble is an image or, once it fails, says so.
      expect(await c.root.locator('[part~="host-bubble"]').last().locator('img, span').count()).toBeGreaterThan(0)
      expect(await c.guestBubbles.allTextContents()).toEqual(['Sure!', '7', 'It is fine\nbut slow'])
      expect(await axeViolations(page)).toEqual([])
      expect(errors).toEqual([])
    },
    FLOW_TEST_MS,
  )

  it(
    'tpl-product-recommendation: picture choices, single and multiple, through to the recovery picks',
    async () => {
      const { c, errors } = await open('tpl-product-recommendation.json')
      await c.host("What's your name?").waitFor()
      await c.say('Lin')
      await c.host('Where do you live?').waitFor()
      await c.choose('North America')
      await c.host("What's your sport?").waitFor()
      // A single picture choice answers in one click, each card named by its title.
      await c.root.getByRole('button', { name: /^Cycling/ }).waitFor()
      expect(await c.root.getByRole('group', { name: 'Picture choices' }).locator('img').count()).toBeGreaterThan(0)
      expect(await axeViolations(page)).toEqual([])
      await c.choose(/^Cycling/)
      await c.host("What's your gender?").waitFor()
      await c.choose('Other')
      await c.host('How can Näak help you achieve your goals?').waitFor()
      // A multiple picture choice toggles cards, then sends.
      await c.choose(/^Recovery/)
      expect(await c.root.getByRole('button', { name: /^Recovery/ }).getAttribute('aria-pressed')).toBe('true')
      await c.choose('Send')
      await c.host('What protein source are you interested in?').waitFor()
      await c.choose('Plant-based')
      await c.choose('Send')
      await c.host('What are flavors do you enjoy?').waitFor()
      await c.choose('Lime')
      await c.choose('Next')
      await c.host('Do you have any dietary restrictions?').waitFor()
      await c.choose('Nut free')
      await c.host('Sign up to our email list').waitFor()
      await c.say('lin@example.com')
      await c.host('Recovery 🧘‍♂️ is crucial to perform at your highest level on the field.').waitFor()
      await c.root.getByRole('button', { name: /^Vanilla Protein Powder/ }).waitFor()
      expect(await axeViolations(page)).toEqual([])
      await c.choose(/^Vanilla Protein Powder/)
      await c.choose('Send')
      await expectEnded(c)
      expect(await lastHostText(c)).toBe('Here is a selection for you based on your answers.')
      expect(await c.guestBubbles.allTextContents()).toEqual([
        'Lin',
        'North America',
        'Cycling',
        'Other',
        'Recovery',
        'Plant-based',
        'Lime',
        'Nut free',
        'lin@example.com',
        'Vanilla Protein Powder',
      ])
      expect(await axeViolations(page)).toEqual([])
      expect(errors).toEqual([])
    },
    FLOW_TEST_MS,
  )

  it(
    'tpl-nps by keyboard alone: Tab into the widget, Enter and Space on buttons, Enter sends',
    async () => {
      const { c, errors } = await open('tpl-nps.json')
      const sure = c.root.getByRole('button', { name: 'Sure!' })
      await sure.waitFor()
      const focusedText = () => page.evaluate(() => document.querySelector('flow-chat')?.shadowRoot?.activeElement?.textContent ?? null)
      // From the top of the host page, Tab reaches the first answer.
      for (let presses = 0; presses < 10 && (await focusedText()) !== 'Sure!'; presses++) await page.keyboard.press('Tab')
      expect(await focusedText()).toBe('Sure!')
      await page.keyboard.press('Enter')
      // After an answer, focus moves to the new input: the first rating button.
      await expect.poll(focusedText, POLL).toBe('0')
      for (let presses = 0; presses < 3; presses++) await page.keyboard.press('Tab')
      expect(await focusedText()).toBe('3')
      await page.keyboard.press('Space')
      await c.host('Could you tell us what went wrong?').waitFor()
      await expect
        .poll(() => page.evaluate(() => document.querySelector('flow-chat')?.shadowRoot?.activeElement?.localName), POLL)
        .toBe('textarea')
      await page.keyboard.type('Too slow')
      await page.keyboard.press('Enter')
      await c.host(/PROMO123/).waitFor()
      await expectEnded(c)
      expect(await c.guestBubbles.allTextContents()).toEqual(['Sure!', '3', 'Too slow'])
      expect(errors).toEqual([])
    },
    FLOW_TEST_MS,
  )
})
