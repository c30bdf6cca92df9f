import { expect } from 'vitest'
import type { PublishedTestFlow, TestService } from '../helpers/test-service'
import type { WalkPage } from '../helpers/walk'
import { attributes } from './embed-test-pages'

/** test/browser/flows/cross-site.json: a themed flow with a choice, a rating and an end. */
export const CROSS_SITE_FLOW = 'cross-site.json'

/** How the chat shows on the page: at once, behind a launcher, or in a dialog opening by itself. */
export type EmbedMode = 'inline' | 'bubble' | 'popup'

export interface PageCase {
  name: string
  /** The host page's body: what the site owner pasted. */
  body: string
  mode: EmbedMode
}

/** The theme of cross-site.json as the browser computes it. */
const THEME = { hostBubble: 'rgb(26, 35, 126)', button: 'rgb(74, 20, 140)', progress: 'rgb(194, 24, 91)' }

/**
 * Every way a site owner puts the widget on a page, each as its markup. `cdn` serves a copy of
 * the build at `/flow-chat@1.0.0/`.
 */
export function pageCases({ service, flow, cdn }: { service: TestService; flow: PublishedTestFlow; cdn: string }): PageCase[] {
  const module = service.script.replace(/\.js$/, '.mjs')
  const data = attributes({ 'data-flow': flow.publicId, 'data-api-host': service.origin, 'data-token': service.publishableToken })
  const element = attributes({ flow: flow.publicId, 'api-host': service.origin, token: service.publishableToken })
  return [
    { name: 'inline script tag', mode: 'inline', body: `<script src="${service.script}" defer ${data}></script>` },
    { name: 'bubble', mode: 'bubble', body: `<script src="${service.script}" defer ${data} data-mode="bubble"></script>` },
    { name: 'popup', mode: 'popup', body: `<script src="${service.script}" defer ${data} data-mode="popup" data-default-open></script>` },
    {
      name: 'launcher element',
      mode: 'bubble',
      body: `<script src="${service.script}" defer></script><flow-chat-bubble ${element}></flow-chat-bubble>`,
    },
    { name: 'module build', mode: 'inline', body: `<script type="module" src="${module}"></script><flow-chat ${element}></flow-chat>` },
    { name: 'crossorigin script', mode: 'inline', body: `<script src="${service.script}" crossorigin="anonymous" defer ${data}></script>` },
    { name: 'old /dist/ path', mode: 'inline', body: `<script src="${service.origin}/dist/flow-chat.js" defer ${data}></script>` },
    { name: 'CDN copy', mode: 'inline', body: `<script src="${cdn}/flow-chat@1.0.0/flow-chat.js" defer ${data}></script>` },
    {
      // Two copies of the widget on one page, each with its own element: the page's own chat
      // from the service, a shop's chat from the CDN copy under another name. Each loads its
      // chunks from where it came from (checked by walkToTheEnd through the chunks requested).
      name: 'two copies',
      mode: 'inline',
      body: `<script src="${service.script}" defer></script><flow-chat ${element}></flow-chat>
<script type="module">import { defineFlowChat } from '${cdn}/flow-chat@1.0.0/flow-chat.mjs'; defineFlowChat({ tagName: 'shop-chat' })</script>
<shop-chat ${element} label="Shop chat"></shop-chat>`,
    },
  ]
}

/**
 * A visitor's way through cross-site.json: opens the chat (a launcher's colours are the theme's),
 * sees the first bubble themed with the avatar from the flow service and the progress bar, picks a
 * plan, rates, and reads the end. Where a page has two chats, the last one is walked.
 */
export async function walkToTheEnd(walk: WalkPage, mode: EmbedMode, service: string, options: { avatar?: boolean } = {}): Promise<void> {
  if (mode === 'bubble') {
    // The launcher takes the theme's colours once the published flow has arrived.
    await expect
      .poll(() => walk.style('button[part~="button"][aria-expanded]', undefined, 'background-color'), { timeout: 10_000 })
      .toBe(THEME.button)
    await walk.click('button[part~="button"][aria-expanded]')
  }
  if (mode === 'popup') await walk.waitFor('dialog[open]')
  expect(await walk.style('[part~="host-bubble"]', 'Which plan suits you?', 'background-color')).toBe(THEME.hostBubble)
  if (options.avatar !== false) {
    // The avatar's address in the flow is relative (/demo/assets/…): it is the service's, not the page's.
    expect(await walk.property('img[part~="host-avatar"]', undefined, 'src')).toBe(`${service}/demo/assets/host-avatar.svg`)
    // Loaded (it may still be on its way when the bubble shows).
    await expect.poll(() => walk.property('img[part~="host-avatar"]', undefined, 'naturalWidth'), { timeout: 10_000 }).toBeGreaterThan(0)
  }
  expect(await walk.style('[part~="progress-fill"]', undefined, 'background-color')).toBe(THEME.progress)
  expect(await walk.style('button', 'Team', 'background-color')).toBe(THEME.button)
  await walk.click('button', 'Team')
  await walk.waitFor('[part~="host-bubble"]', 'How likely are you to recommend us?')
  await walk.click('button', '4')
  await walk.waitFor('[part~="host-bubble"]', 'Thanks, Team fan: you gave 4.')
}

/** What a walk must have left: no failed request, no error event or console error, the flow's end. */
export async function expectCleanWalk(walk: WalkPage): Promise<void> {
  const record = await walk.record()
  expect(record.failedRequests).toEqual([])
  expect(record.errors).toEqual([])
  expect(record.consoleErrors).toEqual([])
  expect(record.events).toContain('flowchat:end')
}
