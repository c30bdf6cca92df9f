import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CROSS_SITE_FLOW, walkToTheEnd } from './embed/cross-site-walk'
import { axeViolations } from './helpers/chat-page'
import { useBrowserSuite } from './helpers/browser-suite'
import { run } from './helpers/processes'
import { REPO_ROOT, TEST_FLOWS_DIR } from './helpers/test-service'
import { adaptPlaywright } from './helpers/walk'

/**
 * The package as a consumer installs it: `npm pack` of this repository, installed into a new app
 * that type-checks against it (nodenext and bundler), imports it in Node (server rendering), and
 * builds it with Vite; the built app, served on another site than the service, runs a flow to its
 * end with the chunks Vite copied into the app.
 */
const suite = useBrowserSuite([join(TEST_FLOWS_DIR, CROSS_SITE_FLOW)])
let dir: string
let app: string
let tarball: string
const tsc = join(REPO_ROOT, 'node_modules/typescript/bin/tsc')
const vite = join(REPO_ROOT, 'node_modules/vite/bin/vite.js')

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flow-chat-consumer-'))
  // The built files are packed as they are (the test command built them): no prepack build here.
  const packed = JSON.parse(
    await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: REPO_ROOT }),
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
      JSON.parse(await run('npm', ['pack', '--json', '--dry-run', '--ignore-scripts'], { cwd: REPO_ROOT })) as Array<{
        files: Array<{ path: string }>
      }>
    )[0]!.files.map((file) => file.path)
    for (const needed of [
      'dist/flow-chat.js',
      'dist/flow-chat.mjs',
      'dist/sandbox/sandbox.html',
      'dist/types/widget/index.d.ts',
      'dist/types/widget/jsx/react.d.ts',
      'package.json',
    ])
      expect(files).toContain(needed)
    const chunks = readdirSync(join(REPO_ROOT, 'dist')).filter((file) => /^flow-chat-.+\.mjs$/.test(file))
    for (const chunk of chunks) expect(files).toContain(`dist/${chunk}`)
    expect(
      files.filter((file) => !file.startsWith('dist/') && !['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'].includes(file)),
    ).toEqual([])
    expect(files.filter((file) => /\.(br|gz)$/.test(file))).toEqual([])
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
  })

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
    // Vite copied the chunks the module build names with new URL('./…', import.meta.url).
    expect(assets.filter((file) => file.startsWith('flow-chat-theme-vars-'))).toHaveLength(1)

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
      "performance.getEntriesByType('resource').map((e) => e.name).filter((u) => /flow-chat-theme-vars-/.test(u))",
    )
    expect(chunks.map((url) => new URL(url).origin)).toEqual([service.host.origin])
  })
})
