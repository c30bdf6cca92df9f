import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type ScriptOutcome, type ScriptToRun, scriptReply } from '../../src/widget/sandbox/index'
import { type LaunchedBrowser, launchChromium } from './helpers/chromium'
import { ESCAPE_CORPUS, type EscapeCase, NETWORK_OFF_CORPUS } from './sandbox/escape-corpus'
import type { SandboxHost } from './sandbox/host-entry'
import { HOST_SECRETS } from './sandbox/host-secrets'
import { type HostPageOptions, type SandboxTestServer, startSandboxTestServer } from './sandbox/sandbox-server'

let server: SandboxTestServer
let browser: LaunchedBrowser

beforeAll(async () => {
  server = await startSandboxTestServer()
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
})

/** Opens the host page; `errors` collects uncaught exceptions of the page. */
async function openHost(options: HostPageOptions = {}) {
  const page = await browser.context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(server.hostUrl(options))
  await page.waitForFunction(() => window.sandboxHost !== undefined)
  return { page, errors }
}

const run = (page: Page, script: ScriptToRun) => page.evaluate((s) => window.sandboxHost.run(s), script) as Promise<ScriptOutcome>

const host = <K extends keyof SandboxHost>(page: Page, key: K) =>
  page.evaluate((k) => JSON.parse(JSON.stringify(window.sandboxHost[k])) as unknown, key) as Promise<SandboxHost[K]>

const escapePaths = (requests: { path: string }[]) => requests.filter((r) => /\/(escape|collect)\b/.test(r.path))

/** Runs one attack of a corpus (given the service and canary origins) and checks how it ended. */
async function attempt(page: Page, attack: EscapeCase): Promise<ScriptOutcome> {
  const outcome = await run(page, {
    content: attack.content,
    args: [
      { id: 'service', value: server.sandboxOrigin },
      { id: 'canary', value: server.canary.origin },
    ],
  })
  if ('ok' in attack.expected) expect(outcome).toEqual({ ok: true, value: attack.expected.value })
  else expect(outcome).toMatchObject({ ok: false, reason: attack.expected.reason, message: expect.stringMatching(attack.expected.message) })
  return outcome
}

/** What the service may ever see: the host page, its script and the sandbox files. */
const SERVICE_PATHS = new Set([
  '/host',
  '/host/sandbox-host.js',
  '/favicon.ico',
  '/sandbox/v1/sandbox.html',
  '/sandbox/v1/sandbox.js',
  '/bare/sandbox.html',
  '/bare/sandbox.js',
])

describe('the host page bundle', () => {
  it('compiles no code from strings, so it works without unsafe-eval', () => {
    expect(server.hostBundle).toContain('flow-chat-sandbox:')
    for (const pattern of [/(?<![\w$.])eval\s*\(/, /\bnew\s+Function\b/, /(?<![\w$.])Function\s*\(/]) {
      expect(server.hostBundle).not.toMatch(pattern)
    }
  })
})

describe('scripts in the sandbox', () => {
  let page: Page
  let errors: string[]
  beforeAll(async () => {
    ;({ page, errors } = await openHost())
  })
  afterAll(async () => {
    // Under the page's strict CSP, nothing the runner did was refused.
    expect(await host(page, 'violations')).toEqual([])
    expect(errors).toEqual([])
    await page?.close()
  })

  it('passes args as named parameters and returns the value', async () => {
    const outcome = await run(page, {
      content: 'return { greeting: `${salutation}, ${name}!`, count: tags.length + age }',
      args: [
        { id: 'salutation', value: 'Hello' },
        { id: 'name', value: 'Ada' },
        { id: 'tags', value: ['a', 'b'] },
        { id: 'age', value: 36 },
      ],
    })
    expect(outcome).toEqual({ ok: true, value: { greeting: 'Hello, Ada!', count: 38 } })
    expect(scriptReply(outcome)).toBe('{"greeting":"Hello, Ada!","count":38}')
  })

  it('waits for asynchronous results', async () => {
    const outcome = await run(page, {
      content: 'await new Promise((resolve) => setTimeout(resolve, 50)); return Promise.resolve(label + " done")',
      args: [{ id: 'label', value: 'timer' }],
    })
    expect(outcome).toEqual({ ok: true, value: 'timer done' })
    expect(scriptReply(outcome)).toBe('timer done')
  })

  it('reports a throwing script, whose reply is then the empty string', async () => {
    const outcome = await run(page, { content: "throw new RangeError('no such plan')", args: [] })
    expect(outcome).toEqual({ ok: false, reason: 'error', message: 'RangeError: no such plan' })
    expect(scriptReply(outcome)).toBe('')
    const syntax = await run(page, { content: 'return (', args: [] })
    expect(syntax).toMatchObject({ ok: false, reason: 'error', message: expect.stringMatching(/^SyntaxError/) })
  })

  it('treats a result JSON cannot hold as nothing or as a failure, and an error thrown later as the end of the run', async () => {
    expect(await run(page, { content: 'return () => 1', args: [] })).toEqual({ ok: true, value: undefined })
    expect(await run(page, { content: 'return 10n', args: [] })).toEqual({
      ok: false,
      reason: 'error',
      message: 'The result is not a JSON value: TypeError: Do not know how to serialize a BigInt',
    })
    const late = await run(page, {
      content: "setTimeout(() => { throw new Error('from a timer') }); await new Promise(() => {})",
      args: [],
    })
    expect(late).toEqual({ ok: false, reason: 'error', message: 'Uncaught Error: from a timer' })
    // Failure messages are clipped inside the Worker, before they travel anywhere.
    const long = await run(page, {
      content: "setTimeout(() => { throw new Error('x'.repeat(100_000)) }); await new Promise(() => {})",
      args: [],
    })
    expect(long).toEqual({ ok: false, reason: 'error', message: `Uncaught Error: ${'x'.repeat(484)}…` })
  })

  it('delivers emitHostEvent to the host page as parsed JSON', async () => {
    const outcome = await run(page, {
      content: "emitHostEvent('analytics.track', { step: plan, at: [1, 2] }); emitHostEvent('support:open'); return 'sent'",
      args: [{ id: 'plan', value: 'team' }],
    })
    expect(outcome).toEqual({ ok: true, value: 'sent' })
    expect(await host(page, 'events')).toEqual([
      { name: 'analytics.track', payload: { step: 'team', at: [1, 2] } },
      { name: 'support:open', payload: null },
    ])
  })

  it('gives every script a fresh Worker, so nothing one leaves behind reaches the next', async () => {
    await run(page, { content: "globalThis.leftover = 'secret of run 1'; Object.prototype.sticky = 1", args: [] })
    const outcome = await run(page, { content: 'return [typeof leftover, ({}).sticky === undefined]', args: [] })
    expect(outcome).toEqual({ ok: true, value: ['undefined', true] })
    expect(await page.evaluate(() => window.sandboxHost.frameCount())).toBe(1)
  })
})

describe('the escape corpus', () => {
  let page: Page
  let errors: string[]
  let popups = 0
  let runs = 0
  const dialogs: string[] = []
  beforeAll(async () => {
    ;({ page, errors } = await openHost())
    page.on('popup', () => popups++)
    page.on('dialog', async (dialog) => {
      dialogs.push(dialog.message())
      await dialog.dismiss()
    })
  })
  afterAll(async () => {
    await page?.close()
  })

  for (const attack of ESCAPE_CORPUS) {
    it(`fails to ${attack.attack}, and the page sees nothing`, async () => {
      const eventsBefore = (await host(page, 'events')).length
      const pagesBefore = browser.context.pages().length
      const requestsBefore = { service: server.requests.length, canary: server.canary.requests.length }
      const outcome = await attempt(page, attack)
      runs++
      for (const secret of Object.values(HOST_SECRETS)) expect(JSON.stringify(outcome)).not.toContain(secret)

      const events = (await host(page, 'events')).slice(eventsBefore)
      expect(events).toHaveLength(attack.hostEvents ?? 0)
      for (const event of events) expect(Object.keys(Object(event.payload))).not.toContain('__proto__')
      const hostState = await page.evaluate(() => ({
        cookie: document.cookie,
        local: localStorage.getItem('host_secret'),
        url: location.href,
        objectPolluted: ({} as { polluted?: unknown }).polluted,
        arrayPolluted: ([] as unknown as { polluted?: unknown }).polluted,
        frames: window.sandboxHost.frameCount(),
      }))
      expect(hostState).toEqual({
        cookie: HOST_SECRETS.cookie,
        local: HOST_SECRETS.localStorage,
        url: page.url(),
        objectPolluted: undefined,
        arrayPolluted: undefined,
        frames: 1,
      })
      expect(page.url()).toContain('/host?')
      expect(browser.context.pages().length).toBe(pagesBefore)
      expect(popups).toBe(0)
      expect(dialogs).toEqual([])
      expect(server.canary.requests.slice(requestsBefore.canary)).toEqual([])
      expect(escapePaths(server.requests.slice(requestsBefore.service))).toEqual([])
      expect(await host(page, 'violations')).toEqual([])
      // Only messages of the protocol ever came out of the frame, one result per run: none a script composed.
      const messages = await host(page, 'messages')
      for (const message of messages) {
        expect(['flow-chat-sandbox:ready', 'flow-chat-sandbox:event', 'flow-chat-sandbox:result']).toContain(message.type)
        expect(message.origin).toBe('null')
      }
      expect(messages.filter((m) => m.type === 'flow-chat-sandbox:result')).toHaveLength(runs)
      expect(errors).toEqual([])
    })
  }

  it('left nothing but the page and the sandbox files to reach the service, and nothing the canary', () => {
    expect(server.requests.filter((r) => !SERVICE_PATHS.has(r.path))).toEqual([])
    expect(server.canary.requests).toEqual([])
  })
})

describe('the watchdog', () => {
  afterEach(async () => {
    for (const page of browser.context.pages()) await page.close()
  })

  it('stops while(true){} at the limit while the page keeps painting, then runs the next script', async () => {
    const { page, errors } = await openHost({ timeoutMs: 1_500 })
    expect(await run(page, { content: 'return 1', args: [] })).toEqual({ ok: true, value: 1 })

    const looping = run(page, { content: 'while (true) {}', args: [] })
    await expect.poll(() => page.workers().length).toBe(1)
    // Counted from the moment the loop's Worker exists until the watchdog stops it.
    await page.evaluate(() => window.sandboxHost.startFrameClock())
    const outcome = await looping
    const clock = await page.evaluate(() => window.sandboxHost.stopFrameClock())
    console.log(
      `while(true){} in the sandbox: the page painted ${clock.frames} frames, the longest gap ${Math.round(clock.longestGapMs)} ms`,
    )

    expect(outcome).toEqual({ ok: false, reason: 'timeout', message: 'The script did not finish within 1500 ms, so it was stopped' })
    expect(scriptReply(outcome)).toBe('')
    // Had the loop run on the page's thread, not one frame would have painted until it was
    // stopped; on another thread the page goes on painting (a busy machine paints fewer).
    expect(clock.frames).toBeGreaterThanOrEqual(3)
    // The frame went, and its Worker with it.
    expect(await page.evaluate(() => window.sandboxHost.frameCount())).toBe(0)
    await expect.poll(() => page.workers().length).toBe(0)

    expect(await run(page, { content: 'return "after"', args: [] })).toEqual({ ok: true, value: 'after' })
    expect(await page.evaluate(() => window.sandboxHost.frameCount())).toBe(1)
    expect(await host(page, 'logs')).toEqual([
      { level: 'info', code: 'sandbox-restarted', message: 'A script ran out of time; the next one gets a fresh sandbox' },
    ])
    expect(await host(page, 'violations')).toEqual([])
    expect(errors).toEqual([])
  })

  it('stops a script that keeps working in the background: nothing it scheduled happens after the limit', async () => {
    const { page } = await openHost({ timeoutMs: 1_000, network: true })
    const outcome = await run(page, {
      content: "setInterval(() => fetch(canary + '/net/tick').catch(() => {}), 40); await new Promise(() => {})",
      args: [{ id: 'canary', value: server.canary.origin }],
    })
    expect(outcome).toMatchObject({ ok: false, reason: 'timeout' })
    const ticks = () => server.canary.requests.filter((r) => r.path === '/net/tick').length
    expect(ticks()).toBeGreaterThan(0)
    await expect.poll(() => page.workers().length).toBe(0)
    const afterStop = ticks()
    await page.waitForTimeout(500)
    expect(ticks()).toBe(afterStop)
  })
})

describe('network access', () => {
  afterEach(async () => {
    for (const page of browser.context.pages()) await page.close()
  })

  it('is off by default', async () => {
    const { page } = await openHost()
    const outcome = await run(page, {
      content: "try { await fetch(canary + '/escape/default') } catch (e) { return String(e) }",
      args: [{ id: 'canary', value: server.canary.origin }],
    })
    expect(outcome).toEqual({
      ok: true,
      value: 'TypeError: fetch is not available to flow scripts: this site has not allowed network access for scripts',
    })
    expect(escapePaths(server.canary.requests)).toEqual([])
  })

  it("when allowed, reaches other servers without the page's credentials, and still loads no code", async () => {
    const { page } = await openHost({ network: true })
    const outcome = await run(page, {
      content: [
        "const response = await fetch(canary + '/net/data', { credentials: 'include', mode: 'no-cors' })",
        "let loaded = 'no'",
        "try { await import(canary + '/escape/module.js'); loaded = 'yes' } catch {}",
        "return [response.type, typeof importScripts === 'function' && (() => { try { importScripts(canary + '/escape/lib.js') } catch (e) { return e.message } })(), loaded]",
      ].join('\n'),
      args: [{ id: 'canary', value: server.canary.origin }],
    })
    expect(outcome).toEqual({
      ok: true,
      value: ['opaque', expect.stringMatching(/importScripts is not available/), 'no'],
    })
    const data = server.canary.requests.filter((r) => r.path === '/net/data')
    expect(data).toHaveLength(1)
    expect(data[0]!.cookie).toBeUndefined()
    expect(escapePaths(server.canary.requests)).toEqual([])
    expect(await host(page, 'violations')).toEqual([])
  })
})

describe('a copy of the sandbox document served without its CSP header', () => {
  let page: Page
  let errors: string[]
  beforeAll(async () => {
    ;({ page, errors } = await openHost({ withoutHeader: true }))
  })
  afterAll(async () => {
    await page?.close()
  })

  it('still runs scripts', async () => {
    expect(await run(page, { content: 'return [a + 1, typeof window]', args: [{ id: 'a', value: 1 }] })).toEqual({
      ok: true,
      value: [2, 'undefined'],
    })
  })

  for (const attack of NETWORK_OFF_CORPUS) {
    it(`with network access off, fails to ${attack.attack}, and no request leaves`, async () => {
      const requestsBefore = { service: server.requests.length, canary: server.canary.requests.length }
      await attempt(page, attack)
      // Whatever the browser was still doing for the script has had time to reach a server.
      await page.waitForTimeout(100)
      expect(server.canary.requests.slice(requestsBefore.canary)).toEqual([])
      expect(escapePaths(server.requests.slice(requestsBefore.service))).toEqual([])
      expect(await host(page, 'violations')).toEqual([])
      expect(errors).toEqual([])
    })
  }

  it('in the network variant, lets scripts make requests, and still loads no code', async () => {
    const { page: networkPage } = await openHost({ withoutHeader: true, network: true })
    const outcome = await run(networkPage, {
      content: [
        "const response = await fetch(canary + '/net/bare', { mode: 'no-cors' })",
        "let loaded = 'no'",
        "try { await import(canary + '/escape/module.js'); loaded = 'yes' } catch {}",
        'return [response.type, loaded]',
      ].join('\n'),
      args: [{ id: 'canary', value: server.canary.origin }],
    })
    expect(outcome).toEqual({ ok: true, value: ['opaque', 'no'] })
    expect(server.canary.requests.filter((r) => r.path === '/net/bare')).toHaveLength(1)
    expect(escapePaths(server.canary.requests)).toEqual([])
    await networkPage.close()
  })
})

describe('a host page whose CSP does not allow the sandbox', () => {
  it('runs no script, says which frame-src to add, and does not try again', async () => {
    const { page } = await openHost({ frameSrc: "'self'" })
    const outcome = await run(page, { content: 'return 1', args: [] })
    const advice = `add "frame-src ${server.sandboxOrigin}"`
    expect(outcome).toMatchObject({ ok: false, reason: 'unavailable', message: expect.stringContaining(advice) })
    expect(await host(page, 'logs')).toMatchObject([
      { level: 'error', code: 'sandbox-blocked-by-csp', message: expect.stringContaining(advice) },
    ])

    const second = await run(page, { content: 'return 2', args: [] })
    expect(second).toMatchObject({ ok: false, reason: 'unavailable' })
    expect(await page.evaluate(() => window.sandboxHost.frameCount())).toBe(0)
    // The one refused frame is the page's only violation report.
    expect(await host(page, 'violations')).toEqual([`frame-src ${server.sandboxOrigin}`])
    await page.close()
  })
})
