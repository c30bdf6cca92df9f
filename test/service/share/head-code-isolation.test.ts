import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_CONFIG } from '../../../src/service/config'
import { newToken } from '../../../src/service/ids'
import { type RunningServer, startServer } from '../../../src/service/main'
import { type LaunchedBrowser, launchChromium } from '../../browser/helpers/chromium'
import { greetingFlow } from '../helpers/flows'
import { QUIET_LOG } from '../helpers/logs'
import { issueToken } from '../helpers/service'

/**
 * In real Chromium: one workspace's head code, on its own share page, tries to reach what another
 * workspace's visitors left on the service's origin. The widget is not needed for that; the
 * "remembered conversation" is written into the origin's storage by the test.
 */
const SECRET = 'victim-session-id-0123456789'

/** Everything an attacker's head code would try, reported into `window.__report` of wherever it ran. */
const ATTACK = (victimPath: string) => `<script>
(function () {
  var report = (window.__report = { ran: true })
  function attempt(name, read) {
    try { report[name] = String(read()) } catch (error) { report[name] = 'blocked: ' + error.name }
  }
  attempt('localStorage', function () { return JSON.stringify(Object.assign({}, window.localStorage)) })
  attempt('sessionStorage', function () { return JSON.stringify(Object.assign({}, window.sessionStorage)) })
  attempt('cookie', function () { return document.cookie })
  attempt('parentStorage', function () { return JSON.stringify(Object.assign({}, window.parent.localStorage)) })
  attempt('parentDocument', function () { return window.parent.document.documentElement.outerHTML })
  attempt('topDocument', function () { return window.top.document.documentElement.outerHTML })
  fetch(${JSON.stringify(victimPath)}, { credentials: 'include' })
    .then(function (res) { return res.text() })
    .then(function (text) { report.victimPage = text }, function (error) { report.victimPage = 'blocked: ' + error.name })
    .then(function () { report.done = true })
})()
</script>`

let dataDir: string
let server: RunningServer
let browser: LaunchedBrowser

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'flow-head-isolation-'))
  const secretToken = newToken('secret')
  server = await startServer(
    { ...DEFAULT_CONFIG, port: 0, dataDir, secretToken, log: QUIET_LOG },
    { hostname: '127.0.0.1', handleSignals: false },
  )
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
  await server?.close()
  if (dataDir) rmSync(dataDir, { recursive: true, force: true })
})

async function publishShared(token: string, workspaceId: string, metadata: Record<string, unknown>) {
  const base = server.url.replace('localhost', '127.0.0.1')
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const flow = greetingFlow({ settings: { publicShare: { isEnabled: true }, metadata } })
  const imported = await fetch(`${base}/v1/flows/import`, { method: 'POST', headers, body: JSON.stringify({ workspaceId, flow }) })
  const { flow: created } = (await imported.json()) as { flow: { id: string; publicId: string } }
  const published = await fetch(`${base}/v1/flows/${created.id}/publish`, { method: 'POST', headers })
  expect(published.status).toBe(200)
  return `${base}/${created.publicId}`
}

describe('head code of one workspace on its share page', () => {
  it('cannot read, nor fetch, what another workspace left on the service origin', async () => {
    await server.store.workspaces.ensure('victims', 'Victims', new Date())
    await server.store.workspaces.ensure('attackers', 'Attackers', new Date())
    const victimUrl = await publishShared(await issueToken(server.store, 'victims', 'secret'), 'victims', {})
    const victimPath = new URL(victimUrl).pathname
    const attackerUrl = await publishShared(await issueToken(server.store, 'attackers', 'secret'), 'attackers', {
      customHeadCode: ATTACK(victimPath),
    })

    const page = await browser.context.newPage()
    await page.goto(victimUrl)
    await page.evaluate((secret) => {
      localStorage.setItem('flow-chat:conversation', secret)
      sessionStorage.setItem('flow-chat:open', secret)
      document.cookie = `flow-chat=${secret}; path=/`
    }, SECRET)

    await page.goto(attackerUrl)
    let report: Record<string, string | boolean> | undefined
    for (let attempt = 0; attempt < 100 && !report?.done; attempt++) {
      for (const frame of page.frames()) {
        const found = await frame
          .evaluate(() => (window as { __report?: Record<string, string | boolean> }).__report)
          .catch(() => undefined)
        if (found) report = found
      }
      if (!report?.done) await page.waitForTimeout(100)
    }
    await page.close()

    // The head code did run (so the verdicts below are real), and got nothing of the victim's.
    expect(report?.ran).toBe(true)
    expect(report?.done).toBe(true)
    expect(JSON.stringify(report)).not.toContain(SECRET)
    for (const name of ['localStorage', 'sessionStorage', 'cookie', 'parentStorage', 'parentDocument', 'topDocument', 'victimPage']) {
      expect(`${name}: ${report?.[name]}`).toMatch(new RegExp(`^${name}: blocked: \\w+$`))
    }
  })
})
