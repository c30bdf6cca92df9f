import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { useBrowserSuite } from './helpers/browser-suite'
import { chat, trackErrors } from './helpers/chat-page'
import { testPage } from './helpers/test-pages'
import { type PublishedTestFlow, TEST_FLOWS_DIR } from './helpers/test-service'

/**
 * The strictest policy a host can have and still run the widget and frame its sandbox: only the
 * flow service's origin for scripts, requests and frames, nothing inline.
 */
const strictCsp = (service = suite.service.origin) =>
  `default-src 'self'; script-src ${service}; style-src 'self'; connect-src ${service}; frame-src ${service}`
/** Short, so the endless loop is stopped quickly; well above what the other scripts need. */
const SCRIPT_TIMEOUT_MS = 1500

const suite = useBrowserSuite([join(TEST_FLOWS_DIR, 'widget-scripts.json'), join(TEST_FLOWS_DIR, 'widget-script-escapes.json')])

interface Seen {
  scriptEvents: { name: string; payload: unknown }[]
  errors: { code: string; message: string }[]
  violations: string[]
  starts: { resultId: string }[]
  /** Animation frames the page has painted. */
  frames: number
}

declare global {
  interface Window {
    __seen: Seen
  }
}

/**
 * Records what the host page sees: the widget's events, CSP violations, and the animation frames
 * it paints. An init script, so it needs no inline script.
 */
function recordHostSide() {
  const seen: Seen = { scriptEvents: [], errors: [], violations: [], starts: [], frames: 0 }
  window.__seen = seen
  document.addEventListener('flowchat:script-event', (event) => seen.scriptEvents.push((event as CustomEvent).detail))
  document.addEventListener('flowchat:error', (event) => seen.errors.push((event as CustomEvent).detail))
  document.addEventListener('flowchat:start', (event) => seen.starts.push((event as CustomEvent).detail))
  document.addEventListener('securitypolicyviolation', (event) => seen.violations.push(`${event.violatedDirective} ${event.blockedURI}`))
  const tick = () => {
    seen.frames++
    requestAnimationFrame(tick)
  }
  requestAnimationFrame(tick)
}

/** The test page under the strict CSP, with `script-timeout` set on the element as a site would. */
async function openChat(flow: PublishedTestFlow, csp = strictCsp()) {
  const page = await suite.newPage()
  const errors = trackErrors(page)
  const { service } = suite
  const body = testPage({ flow: flow.id, apiHost: service.origin, token: service.publishableToken }).replace(
    '<flow-chat ',
    `<flow-chat script-timeout="${SCRIPT_TIMEOUT_MS}" `,
  )
  await page.addInitScript(recordHostSide)
  await page.goto(service.host.serve(`/scripts/${flow.id}`, { headers: { 'Content-Security-Policy': csp }, body }))
  return { page, errors, c: chat(page) }
}

const seen = (page: Page) => page.evaluate(() => JSON.parse(JSON.stringify(window.__seen)) as Seen)

async function storedVariables(page: Page, flow: PublishedTestFlow) {
  const { starts } = await seen(page)
  const result = await suite.service.store().results.findForFlow(starts[0]!.resultId, flow.id)
  return result?.variables ?? {}
}

describe('flow scripts in the widget, under a strict host CSP', () => {
  it('runs the whole conversation: replies, args, async results, failures, host events and a stopped endless loop', async () => {
    const flow = suite.service.flows['widget-scripts.json']!
    const { page, errors, c } = await openChat(flow)
    await c.host('What is your name?').waitFor()
    // The frames the page paints while each script's Worker lives (one Worker per script).
    const frames = () => page.evaluate(() => window.__seen.frames)
    const paintedDuringScripts: Promise<number>[] = []
    page.on('worker', (worker) => {
      const closed = new Promise((resolve) => worker.once('close', resolve))
      const during = async () => {
        const start = await frames()
        await closed
        return (await frames()) - start
      }
      paintedDuringScripts.push(during())
    })
    await c.say('Ada')

    // Each reply reached the suite.service as the next message and filled the variable the bubble shows:
    // a string as is, an awaited object as JSON, a thrown error as the empty string.
    await c.host('Shout: ADA! | Double: {"twice":6} | Broken: []').waitFor()
    await c.host('After the loop: []').waitFor({ timeout: SCRIPT_TIMEOUT_MS + 10_000 })
    // The endless loop is the last script before this bubble.
    const paintedDuringLoop = paintedDuringScripts.at(-1)

    await c.say('nothing')
    await c.host('Thanks, Ada. You said nothing.').waitFor()

    const host = await seen(page)
    // The page kept painting while the endless loop spun in its Worker until the time limit: on the
    // page's own thread it would have painted not one frame until the loop was stopped.
    console.log(`frames the page painted while each script ran: ${(await Promise.all(paintedDuringScripts)).join(', ')}`)
    expect(paintedDuringScripts).toHaveLength(5)
    expect(await paintedDuringLoop).toBeGreaterThanOrEqual(3)
    expect(host.scriptEvents).toEqual([{ name: 'analytics', payload: { step: 'scripts', name: 'Ada' } }])
    expect(host.errors.map((error) => error.code)).toEqual(['script-failed', 'script-timeout'])
    expect(host.errors[0]!.message).toContain('broken on purpose')
    expect(host.violations).toEqual([])
    expect(errors).toEqual([])

    const variables = await storedVariables(page, flow)
    // The empty reply of a failed script reaches the suite.service, which stores it as no value.
    expect(variables).toMatchObject({ vname: 'Ada', vshout: 'ADA!', vdouble: '{"twice":6}', vbroken: null, vloop: null, vmore: 'nothing' })
    // The sandbox frame lives in the widget's shadow root, never in the page's own DOM.
    expect(await page.evaluate(() => document.querySelectorAll('iframe').length)).toBe(0)
    await page.close()
  })

  it('lets no script reach the cookie, the page, the widget or the top window', async () => {
    const { page, errors, c } = await openChat(suite.service.flows['widget-script-escapes.json']!)
    const pageUrl = page.url()
    await page.evaluate(() => (document.cookie = 'host_secret=s3cr3t'))
    const widgetBefore = await page.evaluate(() => document.querySelector('flow-chat')!.shadowRoot!.childElementCount)

    // `document` is there with the page's address only (document.location); none of the rest is.
    await c.host('Reach: object,undefined,undefined,undefined,undefined,undefined').waitFor()
    await c.say('escapes')
    await c.host('Still here after escapes.').waitFor()

    const host = await seen(page)
    // Every attempt failed inside the sandbox: nothing to read, nothing to write, nowhere to go.
    expect(host.errors.map((error) => error.code)).toEqual(['script-failed', 'script-failed', 'script-failed', 'script-failed'])
    expect(host.scriptEvents).toEqual([])
    expect(page.url()).toBe(pageUrl)
    expect(await page.evaluate(() => document.cookie)).toBe('host_secret=s3cr3t')
    expect(await page.locator('h1').textContent()).toBe('Host page')
    expect(await page.evaluate(() => document.body.innerHTML.includes('pwned'))).toBe(false)
    expect(await page.evaluate(() => document.querySelector('flow-chat')!.shadowRoot!.innerHTML.includes('pwned'))).toBe(false)
    expect(await page.evaluate(() => document.querySelector('flow-chat')!.shadowRoot!.childElementCount)).toBeGreaterThanOrEqual(
      widgetBefore,
    )
    expect(host.violations).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  })

  it('removes the sandbox frame with the element', async () => {
    const { page, c } = await openChat(suite.service.flows['widget-scripts.json']!)
    await c.host('What is your name?').waitFor()
    await c.say('Bo')
    await c.host('Shout: BO!').waitFor()
    const frames = () => page.evaluate(() => document.querySelector('flow-chat')?.shadowRoot?.querySelectorAll('iframe').length ?? 0)
    expect(await frames()).toBe(1)
    const root = await page.evaluateHandle(() => document.querySelector('flow-chat')!.shadowRoot!)
    await page.evaluate(() => document.querySelector('flow-chat')!.remove())
    await expect.poll(() => root.evaluate((shadow) => shadow.querySelectorAll('iframe').length)).toBe(0)
    await page.close()
  })

  it('goes on without scripts when the page CSP refuses the sandbox, saying which frame-src to add', async () => {
    const { page, c } = await openChat(
      suite.service.flows['widget-scripts.json']!,
      strictCsp().replace(`frame-src ${suite.service.origin}`, "frame-src 'none'"),
    )
    const logs: { code: string; description: string }[] = []
    await page.exposeFunction('__log', (detail: { code: string; description: string }) => logs.push(detail))
    await page.evaluate(() =>
      document.addEventListener('flowchat:log', (event) =>
        (window as unknown as { __log(d: unknown): void }).__log((event as CustomEvent).detail),
      ),
    )
    await c.host('What is your name?').waitFor()
    await c.say('Cy')
    // Every script failed as unavailable and replied the empty string; the flow still reached its input.
    await c.host('Shout:  | Double:  | Broken: []').waitFor()
    await c.host('After the loop: []').waitFor()
    const host = await seen(page)
    expect(host.errors.length).toBeGreaterThan(0)
    expect(new Set(host.errors.map((error) => error.code))).toEqual(new Set(['script-unavailable']))
    expect(host.scriptEvents).toEqual([])
    const blocked = logs.find((log) => log.code === 'sandbox-blocked-by-csp')
    expect(blocked?.description).toContain(`frame-src ${suite.service.origin}`)
    expect(await page.evaluate(() => document.querySelector('flow-chat')!.shadowRoot!.querySelectorAll('iframe').length)).toBe(0)
    await page.close()
  })
})
