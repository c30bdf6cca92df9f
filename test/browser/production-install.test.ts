import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { networkInterfaces, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newToken } from '../../src/service/ids'
import { signIn } from './admin/console-page'
import { CROSS_SITE_FLOW, walkToTheEnd } from './embed/cross-site-walk'
import { attributes } from './embed/embed-test-pages'
import { axeViolations, trackErrors } from './helpers/chat-page'
import { type LaunchedBrowser, launchChromium } from './helpers/chromium'
import { type HostSite, startHostSite } from './helpers/host-site'
import { run, type Started, start } from './helpers/processes'
import { REPO_ROOT, TEST_FLOWS_DIR } from './helpers/test-service'
import { adaptPlaywright } from './helpers/walk'

/**
 * The service as operators deploy it (the Dockerfile's steps, without Docker): the built files and
 * the lock copied to a clean directory, a production install there (`npm ci --omit=dev`: no tsx,
 * no Vite), `npm run serve` with no secret token set, the token command it prints run as printed
 * beside it, and a flow embedded from another site with the widget that service serves. Nothing
 * of the repository's own node_modules, sources or demo is there.
 */
let dir: string
let service: Started
let origin: string
let host: HostSite
let chromium: LaunchedBrowser
/** Made by the command the service printed. */
let secret: string
const publishable = newToken('publishable')
/** An operator's shell in the production folder: none of this test run's settings (empty is unset). */
const SHELL = { DATA_DIR: '', DATABASE_URL: '', FLOW_SERVICE_URL: '', FLOW_SECRET_TOKEN: '', HOST: '' }
/** What the service prints when no secret token is set: the command to make one. */
const TOKEN_HINT = /No FLOW_SECRET_TOKEN set: create one with `([^`]+)`/

beforeAll(async () => {
  for (const built of ['dist/flow-chat.js', 'build/service/main.mjs']) {
    if (!existsSync(join(REPO_ROOT, built))) throw new Error(`${built} is missing: run \`npm run build\` first`)
  }
  dir = mkdtempSync(join(tmpdir(), 'flow-chat-production-'))
  for (const path of ['package.json', 'package-lock.json', 'dist', 'build'])
    cpSync(join(REPO_ROOT, path), join(dir, path), { recursive: true })
  await run('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: dir,
    timeoutMs: 600_000,
  })
  // The embedded database in ./.data, as a first `npm run serve` makes it.
  service = await start('npm', ['run', 'serve'], {
    cwd: dir,
    env: { ...SHELL, PORT: '0', FLOW_PUBLISHABLE_TOKEN: publishable },
    ready: /listening on (http:\/\/\S+)/,
    timeoutMs: 120_000,
  }).then((started) => {
    origin = started.match[1]!.replace('localhost', '127.0.0.1')
    return started
  })
  host = await startHostSite()
  chromium = await launchChromium()
}, 900_000)

afterAll(async () => {
  await chromium?.close()
  await host?.close()
  await service?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('the service from a production install', () => {
  it('has what it runs and nothing it does not: no tsx, no Vite, no test tools, nothing the widget bundles', () => {
    for (const runtime of ['hono', '@electric-sql/pglite', 'quickjs-emscripten'])
      expect(existsSync(join(dir, 'node_modules', runtime)), runtime).toBe(true)
    for (const dev of ['tsx', 'vite', 'vitest', 'typescript', 'playwright-core', 'preact', '@preact/signals'])
      expect(existsSync(join(dir, 'node_modules', dev)), dev).toBe(false)
  })

  it('prints a token command that works as printed, beside the service holding its embedded database', async () => {
    await expect.poll(() => TOKEN_HINT.test(service.output()), { timeout: 10_000 }).toBe(true)
    const printed = TOKEN_HINT.exec(service.output())![1]!
    expect(printed).toBe('npx flow-service token create --kind secret')
    const made = await run('sh', ['-c', printed], { cwd: dir, env: SHELL })
    secret = /^(fs_sk_\S+)$/m.exec(made)![1]!
    const flows = await fetch(`${origin}/v1/flows`, { headers: { Authorization: `Bearer ${secret}` } })
    expect(flows.status).toBe(200)
    // `npm run flows` is the same command line, from a production install too (no tsx there).
    const listed = await run('npm', ['run', '--silent', 'flows', '--', 'token', 'list'], { cwd: dir, env: SHELL })
    expect(listed).toContain(`…${secret.slice(-4)}`)
  })

  it('names the command line as it was run, in its usage', async () => {
    for (const [command, args, form] of [
      ['npx', ['flow-service', 'help'], 'npx flow-service'],
      ['npm', ['run', '--silent', 'flows', '--', 'help'], 'npm run flows --'],
      ['node', ['build/service/flow-service.mjs', 'help'], 'node build/service/flow-service.mjs'],
    ] as const) {
      expect((await run(command, [...args], { cwd: dir, env: SHELL })).split('\n')[0]).toBe(`Usage: ${form} <command>`)
    }
  })

  it('listens on loopback only unless HOST says otherwise', async () => {
    const port = Number(new URL(origin).port)
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && !address.internal && address.family === 'IPv4')
    // A machine with no other interface has nothing to check here: loopback is all it has.
    if (!outside) return
    const reached = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: outside.address, port, timeout: 2_000 })
      socket.once('connect', () => {
        socket.destroy()
        resolve(true)
      })
      socket.once('error', () => resolve(false))
      socket.once('timeout', () => {
        socket.destroy()
        resolve(false)
      })
    })
    expect(reached).toBe(false)
  })

  it('serves the widget, the API and share pages, and a flow embedded from another site runs to its end', async () => {
    // The flow's avatar is the demo's, which a production service does not serve: left out here.
    const flow = JSON.parse(readFileSync(join(TEST_FLOWS_DIR, CROSS_SITE_FLOW), 'utf8')) as { theme: { chat: { hostAvatar: unknown } } }
    flow.theme.chat.hostAvatar = { isEnabled: false }
    const api = async (path: string, body?: unknown) => {
      const response = await fetch(`${origin}${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      expect(response.status, path).toBe(200)
      return (await response.json()) as { flow: { id: string; publicId: string } }
    }
    const { flow: imported } = await api('/v1/flows/import', { workspaceId: 'demo', flow })
    await api(`/v1/flows/${imported.id}/publish`)

    const script = await fetch(`${origin}/widget/v1/flow-chat.js`, { headers: { 'Accept-Encoding': 'br' } })
    expect(script.headers.get('content-encoding')).toBe('br')
    expect((await fetch(`${origin}/${imported.publicId}`)).status).toBe(200)

    const page = await chromium.context.newPage()
    const walk = await adaptPlaywright(page)
    const data = attributes({ 'data-flow': imported.publicId, 'data-api-host': origin, 'data-token': publishable })
    await walk.goto(
      host.serve(
        '/shop',
        `<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Shop</h1><script src="${origin}/widget/v1/flow-chat.js" defer ${data}></script></main></body></html>`,
      ),
    )
    await walkToTheEnd(walk, 'inline', origin, { avatar: false })
    expect(await axeViolations(page)).toEqual([])
    const record = await walk.record()
    expect(record.failedRequests).toEqual([])
    expect(record.errors).toEqual([])
    expect(record.consoleErrors).toEqual([])
    await page.close()
  })

  it('serves the console at /admin: the owner signs in and finds the flow with its result', async () => {
    const page = await chromium.context.newPage()
    const errors = trackErrors(page)
    await signIn(page, origin, secret)
    const flow = page.getByRole('button', { name: /^Cross-site/ })
    await flow.waitFor()
    expect(await flow.textContent()).toContain('1 result (1 completed)')
    expect(await axeViolations(page)).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  })
})
