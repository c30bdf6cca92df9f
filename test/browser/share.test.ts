import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { HOSTILE_MARKDOWN_VALUES } from '../service/fixtures/hostile-markdown-values'
import { useBrowserSuite } from './helpers/browser-suite'
import { chat, trackErrors } from './helpers/chat-page'
import { DIST_DIR, REPO_ROOT } from './helpers/test-service'

/**
 * The full-page share link in a real browser: the service's own page, its metadata, and query
 * parameters that reach the widget as prefilled variables (and leave the address bar if asked).
 */

const FAVICON = `data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="8" fill="%23f60"/></svg>`
const METADATA = {
  title: "Ada's onboarding chat",
  description: 'Two quick questions to set up your account.',
  imageUrl: 'https://cdn.example/share-preview.png',
  favIconUrl: FAVICON,
}

/** A greeting that shows the prefilled variables, then a question, so the chat goes on. */
function shareFlow(name: string, settings: Record<string, unknown>) {
  const text = (id: string, plain: string) => ({ id, type: 'text', content: { richText: [{ type: 'p', children: [{ text: plain }] }] } })
  return {
    version: '6',
    name,
    events: [{ id: 'ev1', outgoingEdgeId: 'e1', graphCoordinates: { x: 0, y: 0 }, type: 'start' }],
    groups: [
      {
        id: 'g1',
        title: 'Greet',
        graphCoordinates: { x: 0, y: 100 },
        blocks: [
          text('b1', 'Hello {{Name}}'),
          text('b2', 'Your plan: {{Plan}}'),
          { id: 'b3', type: 'text input', outgoingEdgeId: 'e2', options: { variableId: 'vTeam', labels: { placeholder: 'Team name' } } },
        ],
      },
      { id: 'g2', title: 'Thanks', graphCoordinates: { x: 0, y: 300 }, blocks: [text('b4', 'Welcome, team {{Team}}')] },
    ],
    edges: [
      { id: 'e1', from: { eventId: 'ev1' }, to: { groupId: 'g1' } },
      { id: 'e2', from: { blockId: 'b3' }, to: { groupId: 'g2' } },
    ],
    variables: [
      { id: 'vName', name: 'Name' },
      { id: 'vPlan', name: 'Plan' },
      { id: 'vTeam', name: 'Team' },
    ],
    settings,
  }
}

const FLOWS = {
  'share-hidden.json': shareFlow('Share: hides parameters', {
    publicShare: { isEnabled: true },
    general: { isHideQueryParamsEnabled: true },
    metadata: METADATA,
  }),
  // Kept by default: the flow says nothing about it.
  'share-visible.json': shareFlow('Share: keeps parameters', { publicShare: { isEnabled: true } }),
  'share-off.json': shareFlow('Share: not shared', { publicShare: { isEnabled: false }, metadata: METADATA }),
}

let flowDir: string
const suite = useBrowserSuite(async () => {
  // The browser suite runs against dist/ (see README); build it only when it is not there at all.
  if (!existsSync(join(DIST_DIR, 'flow-chat.js'))) {
    const { build } = await import('vite')
    await build({ root: REPO_ROOT, configFile: join(REPO_ROOT, 'vite.config.ts'), logLevel: 'warn' })
  }
  flowDir = mkdtempSync(join(tmpdir(), 'flow-chat-share-'))
  return Object.entries(FLOWS).map(([file, flow]) => {
    writeFileSync(join(flowDir, file), JSON.stringify(flow))
    return join(flowDir, file)
  })
})
let page: Page

afterAll(() => {
  if (flowDir) rmSync(flowDir, { recursive: true, force: true })
})

/** A page that records CSP violations from its first script on. */
async function newPage() {
  page = await suite.newPage()
  await page.addInitScript(() => {
    const seen: string[] = ((window as { __violations?: string[] }).__violations = [])
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`))
  })
  return page
}
const violations = () => page.evaluate(() => (window as { __violations?: string[] }).__violations ?? [])
const shareUrl = (file: keyof typeof FLOWS, suffix = '') => `${suite.service.origin}/${suite.service.flows[file]!.publicId}${suffix}`
const attribute = (selector: string, name: string) => page.locator(selector).getAttribute(name)

describe('the share page in a browser', () => {
  it('shows the metadata, prefills the query parameters, then removes them from the address bar', async () => {
    await newPage()
    const errors = trackErrors(page)
    const response = await page.goto(shareUrl('share-hidden.json', '?Name=Ada&Plan=pro#start'))
    expect(response?.status()).toBe(200)

    expect(await page.title()).toBe(METADATA.title)
    expect(await attribute('meta[name="description"]', 'content')).toBe(METADATA.description)
    expect(await attribute('meta[property="og:image"]', 'content')).toBe(METADATA.imageUrl)
    expect(await attribute('meta[name="twitter:image"]', 'content')).toBe(METADATA.imageUrl)
    expect(await attribute('link[rel="icon"]', 'href')).toBe(FAVICON)

    const c = chat(page)
    await c.host('Hello Ada').waitFor()
    await c.host('Your plan: pro').waitFor()
    // Gone from the address bar, the fragment kept, and no reload happened to get there.
    expect(page.url()).toBe(shareUrl('share-hidden.json', '#start'))
    expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1)

    // The page is the chat: the widget fills the viewport.
    const box = await page.locator('flow-chat').boundingBox()
    const viewport = await page.evaluate(() => ({ width: innerWidth, height: innerHeight }))
    expect(box).toMatchObject({ x: 0, y: 0, width: viewport.width, height: viewport.height })

    // The conversation goes on from the share page (its own origin passes the chat routes).
    await c.say('Rockets')
    await c.host('Welcome, team Rockets').waitFor()
    expect(await violations()).toEqual([])
    expect(errors).toEqual([])
  })

  it('keeps the query parameters in the address bar unless the flow says to hide them', async () => {
    await newPage()
    const url = shareUrl('share-visible.json', '?Name=Grace&Plan=team')
    await page.goto(url)
    const c = chat(page)
    await c.host('Hello Grace').waitFor()
    await c.host('Your plan: team').waitFor()
    expect(page.url()).toBe(url)
    expect(await page.title()).toBe('Share: keeps parameters')
  })

  it("shows a link's Markdown as the text it is, and keeps it in the address bar (issue 32, finding 5)", async () => {
    await newPage()
    const value = HOSTILE_MARKDOWN_VALUES.find((entry) => entry.tries.startsWith('a heading and'))!.value
    const url = shareUrl('share-visible.json', `?Name=${encodeURIComponent(value)}&Plan=pro`)
    await page.goto(url)
    const c = chat(page)
    const bubble = c.host('Hello # Session expired')
    await bubble.waitFor()
    expect(((await bubble.textContent()) ?? '').replace(/\s+/g, ' ').trim()).toBe(
      'Hello # Session expired [Sign in again](https://evil.test/login)',
    )
    expect(await bubble.locator('a, h1, h2, [href]').count()).toBe(0)
    expect(page.url()).toBe(url)
  })

  it('answers 404 with a readable page when public sharing is off or the flow is unknown', async () => {
    await newPage()
    for (const url of [shareUrl('share-off.json', '?Name=Ada'), `${suite.service.origin}/no-such-flow`]) {
      const response = await page.goto(url)
      expect(response?.status()).toBe(404)
      await page.getByRole('heading', { name: 'Chat not found' }).waitFor()
      expect(await page.locator('flow-chat').count()).toBe(0)
      expect(await page.title()).toBe('Chat not found')
    }
  })
})
