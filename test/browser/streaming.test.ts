import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_BLOCK } from '../../src/widget/content/markdown-blocks'
import { type OpenAiTestServer, startOpenAiTestServer } from '../service/helpers/openai-test-server'
import { MARKDOWN_PATHOLOGIES } from '../widget/content/markdown-pathology-corpus'
import { MARKDOWN_XSS_CORPUS } from '../widget/content/markdown-xss-corpus'
import { useBrowserSuite } from './helpers/browser-suite'
import { axeViolations, chat, trackErrors } from './helpers/chat-page'
import { answerTokens, countRendering, measureLongAnswer, waitForAnswerText } from './helpers/stream-metrics'
import { TEST_FLOWS_DIR } from './helpers/test-service'

// A local OpenAI-compatible server (the API's server-sent events) behind the real service.
let ai: OpenAiTestServer
beforeAll(async () => {
  ai = await startOpenAiTestServer()
})
afterAll(async () => {
  await ai?.close()
})
const suite = useBrowserSuite([join(TEST_FLOWS_DIR, 'ai-chat.json')], undefined, () => ({
  outboundAllowHosts: ['127.0.0.1'],
  ai: {
    defaults: { openai: { apiKey: 'sk-test', baseUrl: ai.baseUrl } },
    timeouts: { firstTokenMs: 30_000, idleMs: 30_000, totalMs: 120_000 },
  },
}))

type Seen = { type: string; detail: { code?: string; attempt?: number; text?: string } }

/** The AI chat on a page (CSP on unless `csp: false`), its flowchat events kept, asked `question`. */
async function ask(question: string, options: { csp?: boolean } = {}) {
  const page = await suite.newPage()
  await page.addInitScript(() => {
    const seen: Seen[] = []
    ;(window as unknown as { __seen: Seen[] }).__seen = seen
    for (const type of ['flowchat:stream-start', 'flowchat:stream-end', 'flowchat:error']) {
      document.addEventListener(type, (event) => seen.push({ type, detail: (event as CustomEvent).detail }))
    }
  })
  const errors = trackErrors(page)
  await page.goto(suite.service.pageUrl(suite.service.flows['ai-chat.json']!, { csp: options.csp }))
  const c = chat(page)
  await c.host('Ask me anything').waitFor()
  await c.say(question)
  return { page, c, errors, answer: c.root.locator('.md') }
}

const seen = (page: Page) => page.evaluate(() => (window as unknown as { __seen: Seen[] }).__seen)
const liveText = (page: Page) => page.locator('flow-chat').locator('[part~="live-region"]').textContent()

describe('streamed AI answers', () => {
  it('shows the tokens as they arrive, as Markdown with a caret, announces the answer once, then goes on', async () => {
    ai.script({ parts: ['**Streaming**', ' works', ' here.', ' And', ' ends.'], pauseAfter: 3 })
    const { page, c, errors, answer } = await ask('Hi')
    await waitForAnswerText(page, 'Streaming works here.')
    // The provider is paused: what is on screen arrived before the end of the answer.
    expect(await answer.getAttribute('data-streaming')).toBe('')
    expect(await answer.locator('strong').textContent()).toBe('Streaming')
    expect(await liveText(page)).not.toContain('works here')
    expect(await axeViolations(page)).toEqual([])

    ai.release()
    await c.host('Anything else?').waitFor()
    expect((await answer.textContent())?.trim()).toBe('Streaming works here. And ends.')
    expect(await answer.getAttribute('data-streaming')).toBeNull()
    await expect.poll(() => liveText(page)).toContain('Streaming works here. And ends.')
    expect((await liveText(page))!.split('Streaming works here').length - 1).toBe(1)
    expect(await seen(page)).toEqual([
      { type: 'flowchat:stream-start', detail: { attempt: 0 } },
      { type: 'flowchat:stream-end', detail: { attempt: 0, text: '**Streaming** works here. And ends.' } },
    ])
    expect(await axeViolations(page)).toEqual([])
    expect(errors).toEqual([])
  })

  it('keeps what arrived when the answer fails mid-way and streams it again on a keyboard retry', async () => {
    ai.script({ parts: ['Half', ' of it', ' never'], dropAfter: 2 }, { parts: ['Half', ' of it', ' at last.'] })
    const { page, c, answer } = await ask('Tell me')
    const retry = c.button('Retry answer')
    await retry.waitFor()
    expect((await answer.textContent())?.trim()).toBe('Half of it')
    expect(await c.root.locator('[part~="answer-status"]').getAttribute('role')).toBe('alert')
    expect(await axeViolations(page)).toEqual([])
    await retry.focus()
    await page.keyboard.press('Enter')
    await c.host('Anything else?').waitFor()
    expect((await answer.textContent())?.trim()).toBe('Half of it at last.')
    expect((await seen(page)).map(({ type, detail }) => `${type}:${detail.code ?? detail.attempt}`)).toEqual([
      'flowchat:stream-start:0',
      'flowchat:error:stream-failed',
      'flowchat:stream-start:1',
      'flowchat:stream-end:1',
    ])
  })

  it('tries an answer that fails to start once more by itself', async () => {
    ai.script({ status: 401 }, { parts: ['Second', ' try.'] })
    const { c, answer } = await ask('Again')
    await c.host('Anything else?').waitFor()
    expect((await answer.textContent())?.trim()).toBe('Second try.')
  })

  it('shows the finished answer after a reload mid-stream, once, and goes on', async () => {
    ai.script({ parts: ['Reloaded', ' answer', ' arrives', ' whole.'], pauseAfter: 2 })
    const calls = ai.received.length
    const { page, c, answer } = await ask('Reload me')
    await waitForAnswerText(page, 'Reloaded answer')
    await page.reload()
    // The remembered conversation is back and follows the answer the service is still reading.
    await waitForAnswerText(page, 'Reloaded answer')
    expect(await c.guestBubbles.allTextContents()).toEqual(['Reload me'])
    ai.release()
    await c.host('Anything else?').waitFor()
    expect(await answer.count()).toBe(1)
    expect((await answer.textContent())?.trim()).toBe('Reloaded answer arrives whole.')
    // The service followed the answer it was already reading: the AI was asked once.
    expect(ai.received.length - calls).toBe(1)
  })

  it('renders a 2,000-token answer at a flat cost per token (figures printed)', async () => {
    const page = await suite.newPage()
    await page.goto(suite.service.pageUrl(suite.service.flows['ai-chat.json']!))
    const c = chat(page)
    await c.host('Ask me anything').waitFor()
    const figures = await measureLongAnswer(page, ai)
    console.log(
      `streamed answer: first byte → first painted token ${figures.firstPaintMs.toFixed(1)} ms; script per token ${figures.earlyMs.toFixed(3)} ms at token ~10, ${figures.lateMs.toFixed(3)} ms at token ~1,990; characters rendered per token ${figures.earlyChars.toFixed(0)} at token ~10, ${figures.lateChars.toFixed(0)} at token ~1,990`,
    )
    expect(await c.root.locator('.md').textContent()).toContain('w1999')
    expect(await c.root.locator('.md p').count()).toBe(50)
    // The work a token costs is rendering the paragraph being written (a paragraph: 40 tokens),
    // at the 1,990th token as at the 10th; rendering the answer so far would be ~13,000
    // characters a token there.
    const paragraph = answerTokens(2_000).slice(1_960).join('').length
    expect(figures.earlyChars).toBeGreaterThan(0)
    expect(figures.lateChars).toBeGreaterThan(0)
    expect(figures.lateChars).toBeLessThanOrEqual(paragraph)
    expect(figures.earlyChars).toBeLessThanOrEqual(paragraph)
  })

  it('renders an 80 KB answer written to be slow to parse in bounded pieces, each part a bounded number of times (long tasks printed)', async () => {
    const hostile = [
      '`_a` runs',
      '`*a` runs',
      'e-mail-like',
      'block quotes nested thousands deep:',
      'lists nested thousands deep on one line',
    ]
      .map((name) => MARKDOWN_PATHOLOGIES.find(({ pathology }) => pathology.startsWith(name))!.make(16_000))
      .concat('The end of a hostile answer.')
      .join('\n\n')
    ai.script({ parts: hostile.match(/[\s\S]{1,8000}/g)! })
    const page = await suite.newPage()
    await page.addInitScript(() => {
      const tasks: number[] = []
      ;(window as unknown as { __longTasks: number[] }).__longTasks = tasks
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) tasks.push(Math.round(entry.duration))
      }).observe({ type: 'longtask', buffered: true })
    })
    const errors = trackErrors(page)
    await page.goto(suite.service.pageUrl(suite.service.flows['ai-chat.json']!))
    const c = chat(page)
    await c.host('Ask me anything').waitFor()
    const rendered = await countRendering(page)
    await page.evaluate(() => ((window as unknown as { __longTasks: number[] }).__longTasks.length = 0))
    await c.say('Something slow, please')
    await waitForAnswerText(page, 'The end of a hostile answer.')
    await c.host('Anything else?').waitFor()
    const tasks = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks)
    const work = await rendered()
    console.log(
      `hostile 80 KB answer: ${work.chars} characters rendered, at most ${work.largestNode} in one piece; long tasks (ms): ${tasks.join(', ') || 'none'}`,
    )
    // Unbounded, one render of such a block took seconds or overflowed the stack (issue 22). The
    // widget renders it in pieces of at most a block (the lexer's work per piece is linear in it:
    // markdown-lexer.test.ts), and each part of the answer a bounded number of times. (A block's
    // text may gain the line breaks its markup puts between elements, never another block.)
    expect(work.largestNode).toBeLessThan(2 * MAX_BLOCK)
    expect(work.chars).toBeGreaterThanOrEqual((await c.root.locator('.md').textContent())!.length)
    expect(work.chars).toBeLessThan(3 * hostile.length)
    expect(errors).toEqual([])
  })

  it('executes, loads and keeps nothing from the Markdown XSS corpus, streamed in small pieces (page without CSP)', async () => {
    const markdown = MARKDOWN_XSS_CORPUS.map(({ markdown }) => markdown).join('\n\n')
    ai.script({ parts: markdown.match(/[\s\S]{1,7}/g)! })
    const page = await suite.newPage()
    const leaks: string[] = []
    page.on('request', (request) => {
      const url = request.url()
      if (!url.startsWith(suite.service.origin) && !url.startsWith(suite.service.host.origin)) leaks.push(url)
    })
    page.on('dialog', (dialog) => {
      leaks.push(`dialog: ${dialog.message()}`)
      void dialog.dismiss()
    })
    await page.goto(suite.service.pageUrl(suite.service.flows['ai-chat.json']!, { csp: false }))
    const c = chat(page)
    await c.host('Ask me anything').waitFor()
    await c.say('Attack')
    await c.host('Anything else?').waitFor()
    const answer = c.root.locator('.md')
    // Hovering every element would fire any handler that survived.
    for (const element of await answer.locator('*').all()) await element.hover({ force: true }).catch(() => {})
    const found = await answer.evaluate((root) => ({
      pwned: (window as unknown as { __pwned?: unknown }).__pwned,
      dangerous: Array.from(root.querySelectorAll('script, iframe, object, embed, svg, style, form, input, meta, img')).map(
        (node) => node.outerHTML,
      ),
      handlers: Array.from(root.querySelectorAll('*')).flatMap((node) =>
        Array.from(node.attributes)
          .filter((attribute) => /^on|^style$|^srcdoc$/.test(attribute.name))
          .map((attribute) => attribute.name),
      ),
      hrefs: Array.from(root.querySelectorAll('[href]')).map((node) => node.getAttribute('href') ?? ''),
      links: Array.from(root.querySelectorAll('a[href]')).map((node) => `${node.getAttribute('target')} ${node.getAttribute('rel')}`),
      text: root.textContent ?? '',
    }))
    expect(found.pwned).toBeUndefined()
    expect(found.dangerous).toEqual([])
    expect(found.handlers).toEqual([])
    for (const href of found.hrefs) expect(href).toMatch(/^(https?|mailto|tel|sms):/)
    for (const link of found.links) expect(link).toBe('_blank noopener noreferrer')
    for (const { attack, survives } of MARKDOWN_XSS_CORPUS) if (survives) expect(found.text, attack).toContain(survives)
    expect(leaks).toEqual([])
    expect(await axeViolations(page)).toEqual([])
  })
})
