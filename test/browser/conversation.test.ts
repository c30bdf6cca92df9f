import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { PNG } from '../service/fixtures/upload-files'
import { useBrowserSuite } from './helpers/browser-suite'
import { axeViolations, chat, trackErrors } from './helpers/chat-page'
import { DEMO_FLOWS_DIR, SHARED_FLOWS_DIR } from './helpers/test-service'

/** Whole conversations with typing emulation, or waits for retries to run out. */
const LONG_TEST_MS = 120_000

const suite = useBrowserSuite([join(DEMO_FLOWS_DIR, 'showcase.json'), join(SHARED_FLOWS_DIR, 'tpl-lead-scoring.json')])
let page: Page

describe('a full conversation in Chromium', () => {
  it(
    'runs the demo showcase flow through every input type to its end, accessibly and without errors',
    async () => {
      page = await suite.newPage()
      const errors = trackErrors(page)
      await page.goto(suite.service.pageUrl(suite.service.flows['showcase.json']!))
      const c = chat(page)

      await c.host('What should I call you?').waitFor()
      expect(await axeViolations(page)).toEqual([])
      await c.say('Ada')
      await c.host('Nice to meet you, Ada!').waitFor()
      await c.host('How old are you?').waitFor()
      await c.say('36')
      await c.host('Thanks, Ada. Let me show you around.').waitFor()
      await c.host('What is your e-mail address?').waitFor()
      await c.say('not an email')
      await c.host(/does not look like an e-mail address/).waitFor()
      await c.say('ada@example.com')
      await c.host('Do you have a website?').waitFor()
      await c.say('https://ada.example')
      await c.host('in case we need to call back?').waitFor()
      await c.say('+1 555 0100')
      await c.host('When would you like a demo call?').waitFor()
      expect(await c.root.locator('video').getAttribute('src')).toMatch(/sample\.webm$/)
      const embed = c.root.locator('iframe[title="Embedded content"]')
      expect(await embed.getAttribute('sandbox')).not.toContain('allow-same-origin')
      // The players' look comes with their chunk: a block frame, without the browser's inset border.
      expect(await embed.evaluate((frame) => [getComputedStyle(frame).display, getComputedStyle(frame).borderTopStyle])).toEqual([
        'block',
        'none',
      ])
      // Hosted players embed by id (they cannot load on this offline machine; their frames still exist).
      expect(await c.root.locator('iframe[title="YouTube video"]').getAttribute('src')).toBe(
        'https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ',
      )
      expect(await c.root.locator('iframe[title="Vimeo video"]').getAttribute('src')).toBe('https://player.vimeo.com/video/76979871')
      await c.root.locator('input[type="date"]').fill('2026-03-01')
      await c.choose('Pick date')
      await c.host('Which topics interest you?').waitFor()
      expect(await axeViolations(page)).toEqual([])
      await c.choose('Theming')
      await c.choose('Accessibility')
      await c.choose('Done')
      await c.host('Pick the plan that fits you best:').waitFor()
      await c.choose(/Starter/)
      await c.host('Any extras? Pick as many as you like.').waitFor()
      await c.choose(/Analytics/)
      await c.choose(/Priority support/)
      expect(await c.button(/Analytics/).getAttribute('aria-pressed')).toBe('true')
      await c.choose('Add these')
      await c.host('Where would you like to start reading?').waitFor()
      const cards = c.root.getByRole('list', { name: 'Cards' })
      expect(await cards.getByRole('listitem').count()).toBe(3)
      expect(await axeViolations(page)).toEqual([])
      await cards
        .getByRole('listitem', { name: /^Theming/ })
        .getByRole('button', { name: 'Read this first' })
        .click()
      await c.host('Good choice: the Theming guide is a fine place to start.').waitFor()
      await c.host(/\(extras: analytics, support\).*How likely are you to recommend us/).waitFor()
      await c.choose('9')
      await c.host('Send a screenshot or a PDF (optional).').waitFor()
      const chooser = page.waitForEvent('filechooser')
      await c.choose('Choose files')
      await (await chooser).setFiles({ name: 'screenshot.png', mimeType: 'image/png', buffer: PNG })
      await c.root.getByText('screenshot.png uploaded').waitFor()
      await c.choose('Send 1 file')
      await c.host(/Would you like to open the documentation now/).waitFor()
      const docs = c.root.getByRole('link', { name: 'documentation' })
      expect(await docs.getAttribute('target')).toBe('_blank')
      expect(await docs.getAttribute('rel')).toBe('noopener noreferrer')
      await c.choose('No thanks')
      await c.host(/No problem. Bye!/).waitFor()

      // Answers as the visitor read them (choices by label), the phone as the suite.service normalised it.
      expect(await c.guestBubbles.allTextContents()).toEqual([
        'Ada',
        '36',
        'not an email',
        'ada@example.com',
        'https://ada.example',
        '+15550100',
        expect.stringMatching(/2026/),
        'Theming, Accessibility',
        'Starter',
        'Analytics, Priority support',
        'Read this first',
        '9',
        'Screenshot sent',
        'No thanks',
      ])
      await expect.poll(() => c.root.locator('[part~="input-row"]').count()).toBe(0)
      expect(await axeViolations(page)).toEqual([])
      expect(errors).toEqual([])
    },
    LONG_TEST_MS,
  )

  it(
    'runs tpl-lead-scoring.json (choices, numbers, score conditions) to its conclusion',
    async () => {
      page = await suite.newPage()
      const errors = trackErrors(page)
      await page.goto(suite.service.pageUrl(suite.service.flows['tpl-lead-scoring.json']!))
      const c = chat(page)
      await c.host('Do you work with a specific company?').waitFor()
      await c.choose('Yes')
      await c.host('Which company?').waitFor()
      await c.say('Acme')
      await c.host('How many employees is your team composed of?').waitFor()
      await c.say('120')
      await c.host("What's your job role?").waitFor()
      await c.choose('Developer')
      await c.host('Where are you based?').waitFor()
      expect(await c.input.getAttribute('placeholder')).toBe('Type your country...')
      await c.say('France')
      await c.host('Thank you for answering these questions').waitFor()
      await c.host(/We'll get back to you ASAP|Bye bye/).waitFor()
      expect(await c.guestBubbles.allTextContents()).toEqual(['Yes', 'Acme', '120', 'Developer', 'France'])
      expect(await axeViolations(page)).toEqual([])
      expect(errors).toEqual([])
    },
    LONG_TEST_MS,
  )
})
