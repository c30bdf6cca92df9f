import type { CDPSession, Page } from 'playwright-core'
import type { OpenAiTestServer } from '../../service/helpers/openai-test-server'
import { chat } from './chat-page'

/**
 * Figures of a streamed answer in a real page: script time the page spent per token over a
 * window of tokens (Chromium's ScriptDuration, which counts the widget's reading, parsing and
 * rendering and nothing the page was idle for), and the time from the stream's first byte to the
 * first animation frame that shows its text.
 */

export async function scriptSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics')
  return metrics.find((metric) => metric.name === 'ScriptDuration')?.value ?? 0
}

export async function startMetrics(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Performance.enable')
  return cdp
}

/** Waits until the answer shows `text`, then for two more frames (rendering done). */
export async function waitForAnswerText(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    (expected) => document.querySelector('flow-chat')?.shadowRoot?.querySelector('.md')?.textContent?.includes(expected) === true,
    text,
    { polling: 'raf', timeout: 20_000 },
  )
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
}

/**
 * From now on, counts the characters of text the widget renders into answers: the text of every
 * node it adds under a `.md` element (a completed block once, the block being written each time
 * it is rendered again). Work counted, not timed: re-rendering the whole answer at each token
 * would show as characters growing with the answer's length. Returns a reader of the count, and
 * of the most text one added node held.
 */
export async function countRendering(page: Page): Promise<() => Promise<{ chars: number; largestNode: number }>> {
  await page.evaluate(`(() => {
    const count = (window.__rendered = { chars: 0, largestNode: 0 })
    const root = document.querySelector('flow-chat').shadowRoot
    new MutationObserver((records) => {
      for (const record of records) {
        if (!(record.target instanceof Element) || !record.target.closest('.md')) continue
        for (const node of record.addedNodes) {
          const chars = (node.textContent ?? '').length
          count.chars += chars
          count.largestNode = Math.max(count.largestNode, chars)
        }
      }
    }).observe(root, { childList: true, subtree: true })
  })()`)
  return () => page.evaluate(() => ({ ...(window as unknown as { __rendered: { chars: number; largestNode: number } }).__rendered }))
}

/** From now on, notes the first frame in which the streamed answer shows text. */
export async function watchFirstPaint(page: Page): Promise<void> {
  // A string, not a function: tsx (the benchmark's runner) would name the inner function with a
  // helper that does not exist in the page.
  await page.evaluate(`(() => {
    const tick = () => {
      const text = document.querySelector('flow-chat')?.shadowRoot?.querySelector('.md')?.textContent ?? ''
      if (text.trim()) window.__firstPaint = performance.now()
      else requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
  })()`)
}

/** Milliseconds from the stream response's first byte to the first frame showing its text. */
export async function firstByteToFirstPaint(page: Page): Promise<number> {
  return page.evaluate(() => {
    const entry = performance.getEntriesByType('resource').find((item) => item.name.endsWith('/streamMessage')) as
      | PerformanceResourceTiming
      | undefined
    const painted = (window as unknown as { __firstPaint?: number }).__firstPaint
    return entry && painted !== undefined ? painted - entry.responseStart : Number.NaN
  })
}

/** `count` tokens of an answer: words, with a paragraph break every `paragraph` tokens (as answers are written). */
export function answerTokens(count: number, paragraph = 40): string[] {
  return Array.from({ length: count }, (_, index) => (index > 0 && index % paragraph === 0 ? `\n\nw${index}` : ` w${index}`))
}

export interface LongAnswerFigures {
  /** Stream's first byte → first frame showing its text, ms. */
  firstPaintMs: number
  /** Script time per token over tokens 6–15 and 1,986–1,995, ms. */
  earlyMs: number
  lateMs: number
  /** Characters rendered per token over the same windows (countRendering). */
  earlyChars: number
  lateChars: number
}

/**
 * Asks the AI chat on `page` (its first question on screen) for a 2,000-token answer that `ai`
 * streams with pauses around token 10 and token 1,990, and measures the page's script time per
 * token in each window; resolves once the flow went on after the answer.
 */
export async function measureLongAnswer(page: Page, ai: OpenAiTestServer): Promise<LongAnswerFigures> {
  ai.script({ parts: answerTokens(2_000), pauseAfter: [5, 15, 1_985, 1_995] })
  const c = chat(page)
  await c.say('A long answer, please')
  const cdp = await startMetrics(page)
  const rendered = await countRendering(page)
  await watchFirstPaint(page)
  const perToken = async (from: number, to: number) => {
    await waitForAnswerText(page, `w${from - 1}`)
    const before = await scriptSeconds(cdp)
    const renderedBefore = (await rendered()).chars
    ai.release()
    await waitForAnswerText(page, `w${to - 1}`)
    return {
      ms: (((await scriptSeconds(cdp)) - before) * 1_000) / (to - from),
      chars: ((await rendered()).chars - renderedBefore) / (to - from),
    }
  }
  const early = await perToken(5, 15)
  ai.release()
  const late = await perToken(1_985, 1_995)
  ai.release()
  await c.host('Anything else?').waitFor()
  await cdp.detach()
  return {
    firstPaintMs: await firstByteToFirstPaint(page),
    earlyMs: early.ms,
    lateMs: late.ms,
    earlyChars: early.chars,
    lateChars: late.chars,
  }
}
