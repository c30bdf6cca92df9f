import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mountDemoSite } from '../../demo/site/routes'
import { type SeededFlow, seedFlows } from '../../demo/site/seed'
import { DEFAULT_CONFIG } from '../../src/service/config'
import { newToken } from '../../src/service/ids'
import { type RunningServer, startServer } from '../../src/service/main'
import { QUIET_LOG } from '../service/helpers/logs'
import { axeViolations, chat, trackErrors } from './helpers/chat-page'
import { type LaunchedBrowser, launchChromium } from './helpers/chromium'
import { DEMO_ASSETS_DIR, DEMO_FLOWS_DIR } from './helpers/test-service'

/** The demo site as `npm start` serves it (its own pages, under its own CSP), with the scripts flow. */
let server: RunningServer
let browser: LaunchedBrowser
let dataDir: string
let flows: SeededFlow[] = []
let secretToken: string

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'flow-chat-demo-scripts-'))
  secretToken = newToken('secret')
  const publishableToken = newToken('publishable')
  const unlimited = { perMinute: 0, burst: 1_000_000 }
  server = await startServer(
    {
      ...DEFAULT_CONFIG,
      port: 0,
      dataDir,
      secretToken,
      publishableToken,
      rateLimits: { chat: unlimited, management: unlimited },
      log: QUIET_LOG,
    },
    {
      hostname: '127.0.0.1',
      handleSignals: false,
      mount: (app) => {
        mountDemoSite(app, {
          assetsDir: DEMO_ASSETS_DIR,
          flows: () => flows,
          context: (url) => ({ apiHost: new URL(url).origin, publishableToken }),
          secretToken,
        })
      },
    },
  )
  flows = await seedFlows({
    baseUrl: server.url,
    secretToken,
    workspaceId: 'demo',
    stateFile: join(dataDir, 'seed.json'),
    files: [{ path: join(DEMO_FLOWS_DIR, 'scripts.json'), source: 'demo' }],
  })
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

describe('the scripts demo flow on the inline demo page', () => {
  it('computes a quote in the sandbox and lists the script events, under the demo CSP', async () => {
    const flow = flows.find((f) => f.file === 'scripts.json')!
    expect(flow.shareEnabled).toBe(true)
    const page = await browser.context.newPage()
    const origin = new URL(server.url).origin
    const errors = trackErrors(page)
    await page.addInitScript(() => {
      const violations: string[] = []
      ;(window as { __violations?: string[] }).__violations = violations
      document.addEventListener('securitypolicyviolation', (event) => violations.push(`${event.violatedDirective} ${event.blockedURI}`))
    })
    await page.goto(`${origin}/demo/inline/${flow.publicId}`)
    const c = chat(page)
    await c.host('What is your name?').waitFor()
    await c.say('Ada')
    await c.host('How many nights').waitFor()
    await c.say('7')
    // 7 × €89, 15% off: computed by the script, sent back as the Quote variable.
    await c.host('comes to €529.55').waitFor()
    await c.choose('Sea view')
    await c.host('Booked: Sea view for 7 nights, €529.55.').waitFor()

    const events = page.locator('#host-events li')
    await expect.poll(() => events.count()).toBe(2)
    expect(await events.nth(0).locator('strong').textContent()).toBe('analytics')
    expect(JSON.parse((await events.nth(0).locator('code').textContent())!)).toEqual({ step: 'quote', nights: 7, quote: '€529.55' })
    expect(JSON.parse((await events.nth(1).locator('code').textContent())!)).toEqual({ step: 'room', room: 'Sea view' })
    expect(await page.evaluate(() => (window as { __violations?: string[] }).__violations)).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('the inline demo page’s language and colour switcher', () => {
  it('turns the chat French, then Arabic and dark, without starting it over', async () => {
    const flow = flows.find((f) => f.file === 'scripts.json')!
    const page = await browser.context.newPage()
    const errors = trackErrors(page)
    await page.goto(`${new URL(server.url).origin}/demo/inline/${flow.publicId}`)
    const c = chat(page)
    await c.host('What is your name?').waitFor()
    const before = await c.hostBubbles.count()
    // The flow names its own fields and buttons: the chat's own words change (its name, here).
    await page.getByLabel('Language', { exact: true }).selectOption('fr')
    await c.root.getByRole('region', { name: 'Discussion' }).waitFor()
    await page.getByLabel('Language', { exact: true }).selectOption('ar')
    await page.getByLabel('Colours', { exact: true }).selectOption('dark')
    await c.root.getByRole('region', { name: 'الدردشة' }).waitFor()
    const frame = c.root.locator('[part="frame"]')
    await expect.poll(() => frame.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(21, 23, 27)')
    expect(await frame.evaluate((element) => [element.getAttribute('dir'), getComputedStyle(element).backgroundColor])).toEqual([
      'rtl',
      'rgb(21, 23, 27)',
    ])
    // Still the first conversation: nothing asked twice.
    expect(await c.hostBubbles.count()).toBe(before)
    expect(await axeViolations(page)).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  })
})

describe('the demo outbox page', () => {
  it('opens only once the secret token is typed into its form, which keeps it out of the address', async () => {
    const page = await browser.context.newPage()
    const origin = new URL(server.url).origin
    const errors = trackErrors(page)
    await page.goto(`${origin}/demo/outbox`)
    const token = page.getByLabel('Secret token')
    await token.fill(newToken('secret'))
    await page.getByRole('button', { name: 'Open the outbox' }).click()
    await page.getByRole('alert').filter({ hasText: 'That is not the demo’s secret token.' }).waitFor()
    expect(await axeViolations(page)).toEqual([])

    await token.fill(secretToken)
    await token.press('Enter')
    await page.getByText('No e-mail yet.').waitFor()
    expect(page.url()).toBe(`${origin}/demo/outbox`)
    const cookies = await browser.context.cookies(`${origin}/demo/outbox`)
    expect(cookies.find((cookie) => cookie.name === 'demo_outbox')).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/demo/outbox',
    })
    expect(JSON.stringify(cookies)).not.toContain(secretToken.slice(6))
    expect(await axeViolations(page)).toEqual([])
    // The cookie opens it again without the token.
    await page.reload()
    await page.getByText('No e-mail yet.').waitFor()
    // The wrong token's answer is a 401, which Chromium reports on the console.
    expect(errors.filter((error) => !error.includes('401'))).toEqual([])
    await page.close()
  })
})
