import { describe, expect, it } from 'vitest'
import { indexPage } from '../../../demo/site/pages'
import type { SeededFlow } from '../../../demo/site/seed'

const ctx = { apiHost: 'http://localhost:8787', publishableToken: 'fs_pk_demo' }
const flow = (file: string, name: string, publicId: string, shareEnabled = true): SeededFlow => ({
  file,
  source: 'demo',
  name,
  flowId: `id-${publicId}`,
  publicId,
  shareEnabled,
})
const DEMO_FLOWS = [
  flow('showcase.json', 'Showcase', 'showcase-1'),
  flow('scripts.json', 'Scripts', 'scripts-1'),
  flow('contact-form.json', 'Contact form', 'contact-1'),
  flow('ai-assistant.json', 'AI assistant', 'ai-1'),
]

/** The index's cards: each page's title, address and snippet, in order. */
function cards(page: string) {
  return [
    ...page.matchAll(/<li class="page">[\s\S]*?<h3><a href="([^"]+)">([^<]+)<\/a>[\s\S]*?(?:<code>([\s\S]*?)<\/code>[\s\S]*?)?<\/li>/g),
  ].map(([, href, title, snippet]) => ({ title, href, snippet }))
}

describe('the demo index', () => {
  it('says what each page shows, with the snippet that embeds it from this service', () => {
    const found = cards(indexPage(DEMO_FLOWS, ctx))
    expect(found.map((card) => [card.title, card.href])).toEqual([
      ['Inline chat', '/demo/inline/showcase-1'],
      ['Bubble', '/demo/bubble/showcase-1'],
      ['Popup', '/demo/popup/showcase-1'],
      ['Share link', '/showcase-1'],
      ['Flow scripts', '/demo/inline/scripts-1'],
      ['Contact form and outbox', '/demo/inline/contact-1'],
      ['AI assistant', '/demo/inline/ai-1'],
      ['Several chats on one page', '/demo/several'],
    ])
    const bubble = found.find((card) => card.title === 'Bubble')!.snippet!
    expect(bubble).toContain('src=&#34;http://localhost:8787/widget/v1/flow-chat.js&#34;')
    expect(bubble).toContain('data-flow=&#34;showcase-1&#34; data-api-host=&#34;http://localhost:8787&#34; data-token=&#34;fs_pk_demo&#34;')
    expect(bubble).toContain('data-mode=&#34;bubble&#34;')
  })

  it('sends the site owner to the console, saying how to sign in', () => {
    const page = indexPage(DEMO_FLOWS, ctx)
    const section = /<section aria-labelledby="demo-console">[\s\S]*?<\/section>/.exec(page)?.[0] ?? ''
    expect(section).toContain('<a href="/admin">console</a>')
    expect(section).toContain('secret token <code>npm start</code> printed')
  })

  it('features the first demo flow when there is no showcase, and offers no share link a flow does not allow', () => {
    const found = cards(indexPage([flow('mine.json', 'Mine', 'mine-1', false)], ctx))
    expect(found.map((card) => card.href)).toEqual(['/demo/inline/mine-1', '/demo/bubble/mine-1', '/demo/popup/mine-1', '/demo/several'])
  })

  it('says which variables the AI assistant needs when the service has no AI key, and never claims an AI otherwise', () => {
    const without = indexPage([], ctx, { aiConfigured: false })
    expect(without).toContain('The AI assistant has no AI to ask')
    expect(without).toMatch(/OPENAI_API_KEY[\s\S]*OPENAI_BASE_URL[\s\S]*OUTBOUND_ALLOW_HOSTS/)
    const configured = indexPage([], ctx, { aiConfigured: true })
    expect(configured).not.toContain('no AI to ask')
    expect(configured).toContain('with the model the flow names (<code>gpt-4o-mini</code>')
  })
})
