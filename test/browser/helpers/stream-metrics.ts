import type { CDPSession, Page } from 'playwright-core'

/**
 * Figures of a streamed answer in a real page: script time the page spent per token over a
 * window of tokens (Chromium's ScriptDuration, which counts the widget's reading, parsing and
 * rendering and nothing the page was idle for), and the time from the stream's first byte to the
 * first animation frame that shows its text.
 */

/** The widget's streamed answer (its Markdown root) inside the shadow root. */
export const ANSWER = 'flow-chat >> .md'

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

/** From now on, notes the first frame in which the streamed answer shows text. */
export async function watchFirstPaint(page: Page): Promise<void> {
  await page.evaluate(() => {
    const tick = () => {
      const text = document.querySelector('flow-chat')?.shadowRoot?.querySelector('.md')?.textContent ?? ''
      if (text.trim()) (window as unknown as { __firstPaint: number }).__firstPaint = performance.now()
      else requestAnimationFrame(tick)
    }
    requestAnimationFrame(tick)
  })
}

/** Milliseconds from the stream response's first byte to the first frame showing its text. */
export async function firstByteToFirstPaint(page: Page): Promise<number> {
  return page.evaluate(() => {
    const entry = performance.getEntriesByType('resource').find((item) => item.name.endsWith('/streamMessage')) as PerformanceResourceTiming | undefined
    const painted = (window as unknown as { __firstPaint?: number }).__firstPaint
    return entry && painted !== undefined ? painted - entry.responseStart : Number.NaN
  })
}

/** `count` tokens of an answer: words, with a paragraph break every `paragraph` tokens (as answers are written). */
export function answerTokens(count: number, paragraph = 40): string[] {
  return Array.from({ length: count }, (_, index) => (index > 0 && index % paragraph === 0 ? `\n\nw${index}` : ` w${index}`))
}
