/**
 * `npm run bench:widget`: the widget in Chromium against the reference service, on a flow that
 * loops one question forever (typing emulation off). Prints the time from navigation to the first
 * bubble, the cost of one exchange around turn 10 and turn 500, and the JS heap and DOM node count
 * at the end. Numbers only; nothing here asserts timings.
 */
import { join } from 'node:path'
import { launchChromium } from './helpers/chromium'
import { TEST_FLOWS_DIR, startTestService } from './helpers/test-service'

const TURNS = Number(process.env.BENCH_TURNS ?? 500)
const WINDOW = 5

interface Turn {
  /** Answer dispatched → next question painted. */
  total: number
  /** continueChat response received → next question in the DOM: the widget's own script. */
  client: number
  /** continueChat response received → next question painted (script, style, layout, paint). */
  frame: number
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

async function main() {
  const service = await startTestService([join(TEST_FLOWS_DIR, 'bench-loop.json')])
  const chromium = await launchChromium()
  try {
    const page = await chromium.context.newPage()
    // tsx compiles with esbuild's keepNames, which wraps functions in a `__name` helper; the
    // functions below run in the page, where that helper must exist too.
    await page.addInitScript('window.__name = (fn) => fn')
    // Timestamps of continueChat responses, taken in the page (fetch is looked up per call).
    await page.addInitScript(() => {
      const original = window.fetch.bind(window)
      const stamps: number[] = ((window as { __responses?: number[] }).__responses = [])
      window.fetch = async (...args) => {
        const response = await original(...args)
        if (String(args[0]).endsWith('/continueChat')) stamps.push(performance.now())
        return response
      }
    })
    await page.goto(service.pageUrl(service.flows['bench-loop.json']!))
    const firstBubble = await page.waitForFunction(
      () => {
        const root = document.querySelector('flow-chat')?.shadowRoot
        return root?.querySelector('[part~="host-bubble"]') ? performance.now() : undefined
      },
      undefined,
      { polling: 'raf' },
    )
    const firstBubbleMs = (await firstBubble.jsonValue()) as number

    const turns = await page.evaluate(async (count) => {
      const root = document.querySelector('flow-chat')!.shadowRoot!
      const stream = root.querySelector('.stream')!
      const stamps = (window as { __responses?: number[] }).__responses!
      const isHostRow = (node: Node) => node instanceof Element && (node.getAttribute('part') ?? '').split(' ').includes('host-row')
      const results: Array<{ total: number; client: number; frame: number }> = []
      for (let turn = 1; turn <= count; turn++) {
        const field = await new Promise<HTMLInputElement>((resolve) => {
          const poll = () => {
            const input = root.querySelector<HTMLInputElement>('input[part~="input"]')
            if (input) resolve(input)
            else requestAnimationFrame(poll)
          }
          poll()
        })
        // Rows are direct children of the stream: watching only its child list costs the same
        // at every turn, so the benchmark itself does not grow with the conversation.
        const arrived = new Promise<number>((resolve) => {
          const observer = new MutationObserver((records) => {
            if (records.some((record) => Array.from(record.addedNodes).some(isHostRow))) {
              observer.disconnect()
              resolve(performance.now())
            }
          })
          observer.observe(stream, { childList: true })
        })
        field.value = `answer ${turn}`
        field.dispatchEvent(new Event('input', { bubbles: true }))
        const sent = performance.now()
        field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }))
        const shown = await arrived
        // The next frame: style, layout and paint of the new bubble are done by then.
        const painted = await new Promise<number>((resolve) => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0)))
        const response = stamps.at(-1) ?? sent
        results.push({ total: painted - sent, client: shown - response, frame: painted - response })
      }
      return results
    }, TURNS)

    const session = await chromium.context.newCDPSession(page)
    await session.send('HeapProfiler.collectGarbage')
    const heap = (await session.send('Runtime.getHeapUsage')) as { usedSize: number }
    const dom = (await session.send('Memory.getDOMCounters')) as { nodes: number }

    const around = (turn: number): Turn[] => turns.slice(Math.max(0, turn - 1 - WINDOW), turn - 1 + WINDOW)
    const cell = (sample: Turn[], pick: (turn: Turn) => number) => `${median(sample.map(pick)).toFixed(1).padStart(10)} ms`
    const row = (label: string, sample: Turn[]) =>
      `${label.padEnd(26)}${cell(sample, (t) => t.total)}${cell(sample, (t) => t.client)}${cell(sample, (t) => t.frame)}`
    console.log(`flow-chat widget benchmark (${TURNS} exchanges, typing emulation off, Chromium ${chromium.context.browser()?.version() ?? ''})`)
    console.log(`Navigation to first bubble  ${firstBubbleMs.toFixed(0)} ms`)
    console.log(`${''.padEnd(26)}${'exchange'.padStart(13)}${'widget JS'.padStart(13)}${'to paint'.padStart(13)}   (medians of ${WINDOW * 2} turns)`)
    console.log(row('Exchange at turn 10', around(10)))
    console.log(row(`Exchange at turn ${TURNS}`, around(TURNS)))
    console.log(`JS heap at the end          ${(heap.usedSize / 1024 / 1024).toFixed(1)} MB`)
    console.log(`DOM nodes at the end        ${dom.nodes}`)
  } finally {
    await chromium.close()
    await service.close()
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
