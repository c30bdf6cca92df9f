import type { CDPSession, Page } from 'playwright-core'
import type { LaunchedBrowser } from './helpers/chromium'
import type { PublishedTestFlow, TestService } from './helpers/test-service'
import { recordTransfers, type Transfer } from './helpers/transfers'

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1).padStart(7)} KiB`

/** What a page load of the widget costs on the wire, split into the widget's files and the API. */
function summary(label: string, transfers: Transfer[], service: TestService): string {
  const widget = transfers.filter((t) => t.url.startsWith(`${service.origin}/widget/`))
  const core = widget.filter((t) => /\/flow-chat\.m?js$/.test(t.url))
  const api = transfers.filter((t) => t.url.startsWith(`${service.origin}/v1/`))
  const cached = widget.filter((t) => t.fromCache).length
  return `${label.padEnd(30)} core ${kib(core.reduce((n, t) => n + t.bytes, 0))}   widget files ${kib(widget.reduce((n, t) => n + t.bytes, 0))} (${widget.length} files, ${cached} from cache)   API ${kib(api.reduce((n, t) => n + t.bytes, 0))}`
}

/** Navigation start → the first host bubble, in ms, with the page's resource timings. */
async function loadToFirstBubble(page: Page, url: string) {
  await page.goto(url)
  const first = (await (
    await page.waitForFunction(
      () =>
        document.querySelector('flow-chat')?.shadowRoot?.querySelector('[part~="host-bubble"]:not([part~="typing"])')
          ? performance.now()
          : undefined,
      undefined,
      { polling: 'raf', timeout: 60_000 },
    )
  ).jsonValue()) as number
  const entries = await page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map((entry) => ({
      name: entry.name,
      start: entry.startTime,
      end: entry.responseEnd,
    })),
  )
  return { first, entries }
}

/**
 * Bytes on the wire for a first visit (empty cache) and a repeat visit (the same browser, a new
 * page), and the waterfall of a first visit under `throttle`: when each request started and
 * ended, against when the first bubble showed. Figures only.
 */
export async function measureWire(
  chromium: LaunchedBrowser,
  service: TestService,
  flow: PublishedTestFlow,
  throttle: (session: CDPSession) => Promise<void>,
): Promise<string[]> {
  const lines: string[] = []
  const url = service.pageUrl(flow)
  const clearing = await chromium.context.newPage()
  const clear = await chromium.context.newCDPSession(clearing)
  await clear.send('Network.clearBrowserCache')
  await clearing.close()
  for (const label of ['First visit', 'Repeat visit']) {
    const page = await chromium.context.newPage()
    const session = await chromium.context.newCDPSession(page)
    const transfers = await recordTransfers(session)
    await throttle(session)
    const { first, entries } = await loadToFirstBubble(page, url)
    // Let late requests (fonts, chunks for later steps) finish before counting.
    await page.waitForTimeout(500)
    lines.push(summary(label, transfers(), service))
    if (label === 'First visit') {
      lines.push(`  waterfall of the first visit (ms from navigation; first bubble at ${first.toFixed(0)} ms):`)
      for (const entry of entries.filter((e) => !e.name.startsWith('data:')).sort((a, b) => a.start - b.start)) {
        const name = entry.name.replace(service.origin, 'service').replace(service.host.origin, 'page').replace(/\?.*$/, '')
        lines.push(`    ${entry.start.toFixed(0).padStart(6)} → ${entry.end.toFixed(0).padStart(6)}  ${name}`)
      }
    }
    await page.close()
  }
  return lines
}
