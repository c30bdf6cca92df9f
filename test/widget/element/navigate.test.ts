import { afterEach, describe, expect, it, vi } from 'vitest'
import { loadChatView } from '../../../src/widget/element/chat-view'
import { defineFlowChat, type FlowChatElement } from '../../../src/widget/index'
import type { FetchLike } from '../../../src/widget/transport/index'
import { publishedFlow, startResponse, text } from '../chat/fake-client'

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } })

/** Redirects a flow may send, each naming where it tries to take the page the chat is in. */
const REDIRECTS = [
  { tries: 'this tab to a look-alike sign-in page', url: 'https://evil.test/console/sign-in', isNewTab: false },
  { tries: 'this tab to a plain http page', url: 'http://evil.test/', isNewTab: false },
  { tries: 'a new tab, as the flow asks', url: 'https://evil.test/offer', isNewTab: true },
]

/** A flow service whose start sends one redirect. */
const redirecting =
  (redirect: { url: string; isNewTab: boolean }): FetchLike =>
  async (url) => {
    if (url.includes('/publishedFlow')) return json({ publishedFlow: publishedFlow(), version: '1' })
    return json(startResponse({ messages: [text('m1', 'Off you go')], clientSideActions: [{ type: 'redirect', redirect }] }))
  }

let count = 0
async function run(redirect: { url: string; isNewTab: boolean }, redirects?: string) {
  const tag = `flow-chat-navigate-${++count}`
  defineFlowChat({ tagName: tag, fetch: redirecting(redirect) })
  const open = vi.spyOn(window, 'open').mockReturnValue(null)
  const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {})
  const element = document.createElement(tag) as FlowChatElement
  element.flow = 'f1'
  element.apiHost = 'https://api.example'
  if (redirects) element.setAttribute('redirects', redirects)
  document.body.append(element)
  await loadChatView()
  await vi.waitFor(() => expect(open.mock.calls.length + assign.mock.calls.length).toBe(1))
  return { open: open.mock.calls, assign: assign.mock.calls }
}

afterEach(() => {
  vi.restoreAllMocks()
  document.body.replaceChildren()
  localStorage.clear()
  sessionStorage.clear()
})

describe('redirects="new-tab" (the console preview)', () => {
  it.each(REDIRECTS)('never sends the page away: $tries opens in a new tab without a handle on it', async (redirect) => {
    const { open, assign } = await run(redirect, 'new-tab')
    expect(assign).toEqual([])
    expect(open).toEqual([[redirect.url, '_blank', 'noopener,noreferrer']])
  })

  it('leaves the page to a same-tab redirect by default, as on a site', async () => {
    const { open, assign } = await run(REDIRECTS[0]!)
    expect(open).toEqual([])
    expect(assign).toEqual([[REDIRECTS[0]!.url]])
  })
})
