/**
 * `npm run bench:widget`: the widget in Chromium against the reference service, on a flow that
 * loops one question forever (typing emulation off). Prints the time from navigation to the first
 * bubble on a desktop and on a mid-range phone profile (CPU 4× slower, 150 ms round trips,
 * 1.6 Mbit/s down), beside the start-up floor measured in the same run (helpers/floor-page.ts:
 * a page that loads one small script from the service, makes one startChat and paints one
 * element; loads alternate between the two) and their ratio, the cost of one exchange around turn 10 and turn 500, and the JS heap and DOM
 * node count at the end. Numbers only; nothing here asserts timings.
 */
import { join } from 'node:path'
import type { CDPSession, Page } from 'playwright-core'
import { measureWire } from './bench-wire'
import { type LaunchedBrowser, launchChromium } from './helpers/chromium'
import { FLOOR_PAINTED } from './helpers/floor-page'
import { startTestService, TEST_FLOWS_DIR, type TestService } from './helpers/test-service'

const TURNS = Number(process.env.BENCH_TURNS ?? 500)
const WINDOW = 5
/** Fresh page loads per profile; the median is printed. */
const LOADS = Number(process.env.BENCH_LOADS ?? 7)

interface Profile {
  name: string
  /** CPU slowdown factor (1: none). */
  cpu: number
  /** Added to every request, in ms; 0: the loopback as it is. */
  latencyMs: number
  /** Bytes per second, -1: unthrottled. */
  download: number
  upload: number
}

const PROFILES: Profile[] = [
  { name: 'desktop', cpu: 1, latencyMs: 0, download: -1, upload: -1 },
  // A mid-range phone on a slow mobile network (Lighthouse's "slow 4G"-like mobile profile).
  { name: 'phone (CPU 4×, 150 ms RTT, 1.6 Mbit/s)', cpu: 4, latencyMs: 150, download: 1_600_000 / 8, upload: 750_000 / 8 },
]

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

/** Applies a profile to a page before it navigates: a first visit, nothing cached (unless `cached`). */
async function applyProfile(session: CDPSession, profile: Profile, cached = false) {
  await session.send('Network.enable')
  await session.send('Network.setCacheDisabled', { cacheDisabled: !cached })
  await session.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: profile.latencyMs,
    downloadThroughput: profile.download,
    uploadThroughput: profile.upload,
  })
  await session.send('Emulation.setCPUThrottlingRate', { rate: profile.cpu })
}

/** Navigation start → the first host bubble in the widget's shadow root (or the floor's element), in ms. */
async function firstBubble(page: Page, url: string, floor = false): Promise<number> {
  await page.goto(url)
  const handle = await page.waitForFunction(
    (floorPainted) => {
      if (floorPainted) return document.querySelector(floorPainted) ? performance.now() : undefined
      const root = document.querySelector('flow-chat')?.shadowRoot
      return root?.querySelector('[part~="host-bubble"]:not([part~="typing"])') ? performance.now() : undefined
    },
    floor ? FLOOR_PAINTED : '',
    { polling: 'raf', timeout: 30_000 },
  )
  return (await handle.jsonValue()) as number
}

interface StartUp {
  ours: number
  floor: number
}

/** Medians of first visits to the widget's page and to the floor's, one after the other. */
async function measureFirstBubble(chromium: LaunchedBrowser, service: TestService, profile: Profile): Promise<StartUp> {
  const flow = service.flows['bench-loop.json']!
  const samples: Record<keyof StartUp, number[]> = { ours: [], floor: [] }
  const load = async (floor: boolean) => {
    const page = await chromium.context.newPage()
    try {
      await applyProfile(await chromium.context.newCDPSession(page), profile)
      samples[floor ? 'floor' : 'ours'].push(await firstBubble(page, floor ? service.floorUrl(flow) : service.pageUrl(flow), floor))
    } finally {
      await page.close()
    }
  }
  for (let round = 0; round < LOADS; round++) {
    // Which goes first alternates too, so neither always meets a warmer (or busier) machine.
    await load(round % 2 === 1)
    await load(round % 2 === 0)
  }
  return { ours: median(samples.ours), floor: median(samples.floor) }
}

async function measureExchanges(page: Page): Promise<Turn[]> {
  return page.evaluate(async (count) => {
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
}

async function main() {
  const service = await startTestService([join(TEST_FLOWS_DIR, 'bench-loop.json'), join(TEST_FLOWS_DIR, 'cross-site.json')])
  const chromium = await launchChromium()
  try {
    const firstBubbles = []
    for (const profile of PROFILES) firstBubbles.push({ profile, ...(await measureFirstBubble(chromium, service, profile)) })
    // A themed flow (avatar, progress bar, choice input) on the phone profile, on the wire.
    const phone = PROFILES[1]!
    const wire = await measureWire(chromium, service, service.flows['cross-site.json']!, (session) => applyProfile(session, phone, true))

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
    await firstBubble(page, service.pageUrl(service.flows['bench-loop.json']!))
    const turns = await measureExchanges(page)

    const session = await chromium.context.newCDPSession(page)
    await session.send('HeapProfiler.collectGarbage')
    const heap = (await session.send('Runtime.getHeapUsage')) as { usedSize: number }
    const dom = (await session.send('Memory.getDOMCounters')) as { nodes: number }

    const around = (turn: number): Turn[] => turns.slice(Math.max(0, turn - 1 - WINDOW), turn - 1 + WINDOW)
    const cell = (sample: Turn[], pick: (turn: Turn) => number) => `${median(sample.map(pick)).toFixed(1).padStart(10)} ms`
    const row = (label: string, sample: Turn[]) =>
      `${label.padEnd(26)}${cell(sample, (t) => t.total)}${cell(sample, (t) => t.client)}${cell(sample, (t) => t.frame)}`
    console.log(
      `flow-chat widget benchmark (${TURNS} exchanges, typing emulation off, Chromium ${chromium.context.browser()?.version() ?? ''})`,
    )
    for (const { profile, ours, floor } of firstBubbles) {
      console.log(
        `${`First bubble, ${profile.name}`.padEnd(52)}${ours.toFixed(0).padStart(6)} ms, floor ${floor.toFixed(0).padStart(5)} ms, ` +
          `${(ours / floor).toFixed(2)}× the floor   (medians of ${LOADS} first visits each, alternating)`,
      )
    }
    console.log(
      `${''.padEnd(26)}${'exchange'.padStart(13)}${'widget JS'.padStart(13)}${'to paint'.padStart(13)}   (desktop, medians of ${WINDOW * 2} turns)`,
    )
    console.log(row('Exchange at turn 10', around(10)))
    console.log(row(`Exchange at turn ${TURNS}`, around(TURNS)))
    console.log(`JS heap at the end          ${(heap.usedSize / 1024 / 1024).toFixed(1)} MB`)
    console.log(`On the wire, a themed flow embedded cross-site (${phone.name}):`)
    for (const line of wire) console.log(line)
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
