import { describe, expect, it } from 'vitest'
import { bubblePage, popupPage, severalInstancesPage } from '../../../demo/site/embed-pages'
import type { SeededFlow } from '../../../demo/site/seed'

const flow = (name: string, publicId: string): SeededFlow => ({
  file: `${publicId}.json`,
  source: 'demo',
  name,
  flowId: `id-${publicId}`,
  publicId,
  shareEnabled: false,
})
const ctx = { apiHost: 'http://127.0.0.1:5173', publishableToken: 'fs_pk_demo' }
const hostile = flow('<img src=x onerror=alert(1)> "quoted"', 'evil"id')

/** Strict CSP pages: every script must be an external file, and no inline style attributes. */
function expectStrictCspFriendly(page: string) {
  const scripts = [...page.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
  expect(scripts.length).toBeGreaterThan(0)
  for (const [, attributes, body] of scripts) {
    expect(attributes).toMatch(/\ssrc="/)
    expect(body!.trim()).toBe('')
  }
  expect(page).not.toMatch(/\sstyle="/)
  expect(page).not.toMatch(/\son\w+="/)
}

describe('embed demo pages', () => {
  it('the bubble page places a themed launcher for the flow and shows its one-tag snippet', () => {
    const page = bubblePage(flow('Lead scoring', 'lead-scoring'), ctx)
    expect(page).toContain('<flow-chat-bubble id="demo-bubble" flow="lead-scoring" api-host="http://127.0.0.1:5173" token="fs_pk_demo"')
    expect(page).toContain('data-mode=&#34;bubble&#34;')
    expectStrictCspFriendly(page)
  })

  it('the popup page has an opener wired to the popup', () => {
    const page = popupPage(flow('Survey', 'survey'), ctx)
    expect(page).toContain('<flow-chat-popup id="demo-popup" flow="survey"')
    expect(page).toContain('data-chat-target="#demo-popup" data-chat-command="open"')
    expectStrictCspFriendly(page)
  })

  it('the several-instances page has two inline chats, a bubble and a popup, each of its own flow', () => {
    const page = severalInstancesPage([flow('A', 'a'), flow('B', 'b'), flow('C', 'c'), flow('D', 'd')], ctx)
    expect(page).toMatch(/<flow-chat id="first-inline" class="inline-chat" flow="a"/)
    expect(page).toMatch(/<flow-chat id="second-inline" class="inline-chat" flow="b"/)
    expect(page).toMatch(/<flow-chat-bubble id="several-bubble" flow="c"/)
    expect(page).toMatch(/<flow-chat-popup id="several-popup" flow="d"/)
    expectStrictCspFriendly(page)
  })

  it('escapes flow names and ids coming from the service', () => {
    for (const page of [bubblePage(hostile, ctx), popupPage(hostile, ctx), severalInstancesPage([hostile], ctx)]) {
      expect(page).not.toContain('<img src=x')
      expect(page).not.toContain('evil"id')
      expectStrictCspFriendly(page)
    }
  })
})
