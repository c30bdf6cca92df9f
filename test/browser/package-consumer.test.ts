import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { build as esbuild } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CROSS_SITE_FLOW, walkToTheEnd } from './embed/cross-site-walk'
import { useBrowserSuite } from './helpers/browser-suite'
import { axeViolations } from './helpers/chat-page'
import { run } from './helpers/processes'
import { REPO_ROOT, TEST_FLOWS_DIR } from './helpers/test-service'
import { adaptPlaywright } from './helpers/walk'

/**
 * The package as a consumer installs it: `npm pack ./dist` (the widget's package, as published),
 * installed into a new app, which gets it alone (no dependency, nothing of the service); the app
 * type-checks against it (nodenext and bundler), imports it in Node (server rendering), and builds
 * it with Vite; the built app, served on another site than the service, runs a flow to its end
 * with the chunks Vite made part of the app, under a CSP naming only the app's own scripts too.
 */
const suite = useBrowserSuite([join(TEST_FLOWS_DIR, CROSS_SITE_FLOW)])
let dir: string
let app: string
let tarball: string
const tsc = join(REPO_ROOT, 'node_modules/typescript/bin/tsc')
const vite = join(REPO_ROOT, 'node_modules/vite/bin/vite.js')

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flow-chat-consumer-'))
  // The built files are packed as they are (the test command built them).
  const packed = JSON.parse(
    await run('npm', ['pack', './dist', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: REPO_ROOT }),
  ) as Array<{ filename: string; files: Array<{ path: string }> }>
  tarball = join(dir, packed[0]!.filename)
  app = join(dir, 'app')
  mkdirSync(join(app, 'src'), { recursive: true })
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'shop', private: true, type: 'module', dependencies: { 'flow-chat-widget': `file:${tarball}` } }, null, 2),
  )
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: app, timeoutMs: 600_000 })
}, 900_000)

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** Bytes of the files under `path`. */
function sizeOf(path: string): number {
  const stat = lstatSync(path)
  if (!stat.isDirectory()) return stat.size
  return readdirSync(path).reduce((total, name) => total + sizeOf(join(path, name)), 0)
}

/** What the consumer writes: the documented names, the module build's API and its element types. */
const APP_SOURCE = `import * as FlowChat from 'flow-chat-widget'
import { initStandard, type FlowChatElement } from 'flow-chat-widget'

const config = document.getElementById('chat')!.dataset
const handle = FlowChat.initStandard({ flow: config.flow!, apiHost: config.apiHost!, token: config.token!, container: '#chat' })
const element: FlowChatElement = handle.element
// Typed through the package's HTMLElementEventMap: detail.message is a string.
element.addEventListener('flowchat:answer', (event) => {
  document.title = event.detail.message.trim()
})
export const same = initStandard === FlowChat.initStandard
`

describe('the package, as a consumer installs it', () => {
  it('ships the widget (scripts, chunks, sandbox document, types) and nothing of the service, demo or tests', async () => {
    const files = (
      JSON.parse(await run('npm', ['pack', './dist', '--json', '--dry-run', '--ignore-scripts'], { cwd: REPO_ROOT })) as Array<{
        files: Array<{ path: string }>
      }>
    )[0]!.files.map((file) => file.path)
    for (const needed of [
      'flow-chat.js',
      'flow-chat.mjs',
      'sandbox/sandbox.html',
      'types/widget/index.d.ts',
      'types/widget/jsx/react.d.ts',
      'types/vendor/zod/LICENSE',
      'package.json',
      'README.md',
    ])
      expect(files).toContain(needed)
    const chunks = readdirSync(join(REPO_ROOT, 'dist')).filter((file) => /^flow-chat-.+\.mjs$/.test(file))
    for (const chunk of chunks) expect(files).toContain(chunk)
    const widget =
      /^(?:flow-chat[\w.-]*\.m?js(?:\.map)?|sandbox\/sandbox\.(?:html|js)(?:\.map)?|types\/.+\.d\.ts|types\/vendor\/.+\/LICENSE)$/
    expect(files.filter((file) => !widget.test(file) && !['package.json', 'README.md'].includes(file))).toEqual([])
  })

  it('installs alone: no dependency, nothing of the service, a few megabytes', async () => {
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules/flow-chat-widget/package.json'), 'utf8')) as Record<string, unknown>
    for (const field of ['dependencies', 'optionalDependencies', 'bundleDependencies', 'bin', 'scripts'])
      expect(manifest[field], field).toBeUndefined()
    // The only peer: React's types, for the opt-in React tags, and optional.
    expect(manifest.peerDependencies).toEqual({ '@types/react': '>=19' })
    const installed = readdirSync(join(app, 'node_modules')).filter((name) => !name.startsWith('.'))
    expect(installed).toEqual(['flow-chat-widget'])
    const bytes = sizeOf(join(app, 'node_modules'))
    console.info(`the package installed: ${installed.length} package, ${(bytes / 1e6).toFixed(2)} MB`)
    // Its scripts, chunks, source maps and declarations: under 5 MB (the service's packages were 129 MB).
    expect(bytes).toBeLessThan(5_000_000)
  })

  it('type-checks under moduleResolution nodenext and bundler', async () => {
    writeFileSync(join(app, 'src/main.ts'), APP_SOURCE)
    const base = { strict: true, target: 'es2022', lib: ['es2023', 'dom', 'dom.iterable'], noEmit: true, skipLibCheck: false, types: [] }
    for (const [name, options] of [
      ['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }],
      ['bundler', { module: 'esnext', moduleResolution: 'bundler' }],
    ] as const) {
      writeFileSync(join(app, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions: { ...base, ...options }, include: ['src'] }))
      await run('node', [tsc, '-p', `tsconfig.${name}.json`], { cwd: app })
    }
  }, 180_000)

  it('imports in Node without touching a DOM (server rendering)', async () => {
    const names = JSON.parse(
      await run(
        'node',
        ['--input-type=module', '-e', "const m = await import('flow-chat-widget'); console.log(JSON.stringify(Object.keys(m).sort()))"],
        { cwd: app },
      ),
    ) as string[]
    expect(names).toEqual(expect.arrayContaining(['initBubble', 'initPopup', 'initStandard', 'defineFlowChat', 'defineFlowChatLaunchers']))
  })

  it('builds with Vite, chunks included, and runs a flow from another site', async () => {
    writeFileSync(join(app, 'src/main.ts'), APP_SOURCE)
    const { service } = suite
    const flow = service.flows[CROSS_SITE_FLOW]!
    writeFileSync(
      join(app, 'index.html'),
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body><main><h1>Shop</h1><div id="chat" data-flow="${flow.publicId}" data-api-host="${service.origin}" data-token="${service.publishableToken}"></div></main><script type="module" src="/src/main.ts"></script></body></html>`,
    )
    await run('node', [vite, 'build', '--base', './', '--logLevel', 'warn'], { cwd: app })
    const built = join(app, 'dist')
    const assets = readdirSync(join(built, 'assets'))
    // Vite split the module build's chunks (its import('./flow-chat-….mjs')) into the app's own.
    expect(assets.filter((file) => file.startsWith('flow-chat-ui-'))).toHaveLength(1)

    for (const file of assets) {
      const type = file.endsWith('.css') ? 'text/css' : 'text/javascript'
      service.host.serve(`/shop/assets/${file}`, { type, body: readFileSync(join(built, 'assets', file), 'utf8') })
    }
    const html = readFileSync(join(built, 'index.html'), 'utf8')
    const page = await suite.newPage()
    const walk = await adaptPlaywright(page)
    await walk.goto(service.host.serve('/shop/', html))
    await walkToTheEnd(walk, 'inline', service.origin)
    expect(await axeViolations(page)).toEqual([])
    const record = await walk.record()
    expect(record.failedRequests).toEqual([])
    expect(record.errors).toEqual([])
    expect(record.consoleErrors).toEqual([])
    // The chunks came from the app's own build, not from the service.
    const chunks = await walk.evaluate<string[]>(
      "performance.getEntriesByType('resource').map((e) => e.name).filter((u) => /flow-chat-ui-/.test(u))",
    )
    expect(chunks.map((url) => new URL(url).origin)).toEqual([service.host.origin])
  })

  it('bundled by esbuild, keeps its chunks as files (code splitting on) or in the bundle (off), never as data: URLs', async () => {
    writeFileSync(join(app, 'src/main.ts'), APP_SOURCE)
    const widgetChunks = readdirSync(join(REPO_ROOT, 'dist')).filter((file) => /^flow-chat-.+\.mjs$/.test(file))
    for (const splitting of [true, false]) {
      const outdir = join(dir, `esbuild-${splitting ? 'split' : 'single'}`)
      await esbuild({
        entryPoints: [join(app, 'src/main.ts')],
        absWorkingDir: app,
        bundle: true,
        format: 'esm',
        splitting,
        outdir,
        logLevel: 'error',
      })
      const files = readdirSync(outdir)
      expect(files).toHaveLength(splitting ? widgetChunks.length + 1 : 1)
      for (const file of files) expect(readFileSync(join(outdir, file), 'utf8'), file).not.toContain('data:text/javascript')
    }
  })

  it("built with Vite's defaults, keeps every chunk a file, and under script-src 'self' announces the conversation", async () => {
    writeFileSync(join(app, 'src/main.ts'), APP_SOURCE)
    const { service } = suite
    const flow = service.flows[CROSS_SITE_FLOW]!
    writeFileSync(
      join(app, 'index.html'),
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body><main><h1>Shop</h1><div id="chat" data-flow="${flow.publicId}" data-api-host="${service.origin}" data-token="${service.publishableToken}"></div></main><script type="module" src="/src/main.ts"></script></body></html>`,
    )
    // No option, no config file: what `npm create vite` apps build with (assetsInlineLimit 4 KB).
    await run('node', [vite, 'build', '--logLevel', 'warn'], { cwd: app })
    const built = join(app, 'dist')
    const assets = readdirSync(join(built, 'assets'))
    const scripts = assets.filter((file) => file.endsWith('.js'))
    // Each of the widget's chunks is a chunk of the app, the small ones too (the live region is 1.7 KB).
    const widgetChunks = readdirSync(join(REPO_ROOT, 'dist')).filter((file) => /^flow-chat-.+\.mjs$/.test(file))
    for (const chunk of widgetChunks)
      expect(
        scripts.filter((file) => file.startsWith(chunk.replace(/\.mjs$/, '-'))),
        chunk,
      ).toHaveLength(1)
    for (const file of scripts) expect(readFileSync(join(built, 'assets', file), 'utf8'), file).not.toContain('data:text/javascript')
    const entry = /src="\/assets\/(index-[\w-]+\.js)"/.exec(readFileSync(join(built, 'index.html'), 'utf8'))![1]!
    const entryBytes = gzipSync(readFileSync(join(built, 'assets', entry))).length
    const coreBytes = gzipSync(readFileSync(join(REPO_ROOT, 'dist/flow-chat.mjs'))).length
    console.info(`Vite app entry: ${entryBytes} B gzip (the widget's core alone: ${coreBytes} B)`)
    // The core and the app's few lines: none of the lazy parts came along.
    expect(entryBytes).toBeLessThan(coreBytes + 2_000)

    // The app on its own site, allowing its own scripts only.
    const csp = "script-src 'self'; object-src 'none'; base-uri 'none'"
    for (const file of assets) {
      const type = file.endsWith('.css') ? 'text/css' : 'text/javascript'
      service.host.serve(`/assets/${file}`, {
        type,
        body: readFileSync(join(built, 'assets', file), 'utf8'),
        headers: { 'Content-Security-Policy': csp },
      })
    }
    const page = await suite.newPage()
    await page.addInitScript(() => {
      const seen = { heard: [] as string[], refused: [] as string[] }
      ;(window as unknown as { __seen: typeof seen }).__seen = seen
      document.addEventListener('securitypolicyviolation', (event) => seen.refused.push(`${event.violatedDirective} ${event.blockedURI}`))
      // What a screen reader hears: what is added to the chat's live region.
      const watch = () => {
        const region = document.querySelector('flow-chat')?.shadowRoot?.querySelector('[part~="live-region"]')
        if (!region) return void requestAnimationFrame(watch)
        new MutationObserver((records) => {
          for (const record of records) for (const node of Array.from(record.addedNodes)) seen.heard.push((node.textContent ?? '').trim())
        }).observe(region, { childList: true, subtree: true })
      }
      requestAnimationFrame(watch)
    })
    const walk = await adaptPlaywright(page)
    await walk.goto(
      service.host.serve('/', { body: readFileSync(join(built, 'index.html'), 'utf8'), headers: { 'Content-Security-Policy': csp } }),
    )
    await walkToTheEnd(walk, 'inline', service.origin)
    const said = ['Which plan suits you?', 'How likely are you to recommend us?', 'Thanks, Team fan: you gave 4.']
    const seen = () => page.evaluate(() => (window as unknown as { __seen: { heard: string[]; refused: string[] } }).__seen)
    const heardOf = (heard: string[]) => said.map((text) => heard.findIndex((line) => line.includes(text)))
    await expect.poll(async () => heardOf((await seen()).heard).every((at) => at >= 0)).toBe(true)
    const { heard, refused } = await seen()
    // Each message once it was shown, in order.
    expect(heardOf(heard)).toEqual([...heardOf(heard)].sort((a, b) => a - b))
    expect(refused).toEqual([])
    expect(await axeViolations(page)).toEqual([])
    const record = await walk.record()
    expect(record.failedRequests).toEqual([])
    expect(record.errors).toEqual([])
    expect(record.consoleErrors).toEqual([])
  })
})
