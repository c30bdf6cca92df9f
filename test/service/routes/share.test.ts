import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { escapeHtml } from '../../../src/service/http/html'
import { RateLimiter } from '../../../src/service/http/rate-limit'
import { registerShareRoutes } from '../../../src/service/routes/share'
import { greetingFlow, importOverHttp, publishOverHttp } from '../helpers/flows'
import { HOSTILE_METADATA, QUOTED_URLS } from '../share/hostile-metadata'
import { eventHandlerAttributes, metaContent, parsePage, scriptSources } from '../share/page-dom'
import { directive, PUBLIC_URL, shareOn, useShareHarness } from '../share/share-harness'

const { state, shareApp, get, sharedFlow, page } = useShareHarness()

describe('GET /{publicId}: the share page', () => {
  it('turns the metadata into title, description, previews and favicon, with the widget full-page', async () => {
    const flow = await sharedFlow(
      shareOn({
        metadata: {
          title: 'Book a demo',
          description: 'Answer three questions and pick a slot.',
          imageUrl: 'https://cdn.example/preview.png',
          favIconUrl: 'https://cdn.example/favicon.png',
        },
      }),
    )
    const { res, doc, csp } = await page(`/${flow.publicId}`)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(doc.title).toBe('Book a demo')
    expect(metaContent(doc, 'name="description"')).toBe('Answer three questions and pick a slot.')
    expect(metaContent(doc, 'property="og:title"')).toBe('Book a demo')
    expect(metaContent(doc, 'property="og:description"')).toBe('Answer three questions and pick a slot.')
    expect(metaContent(doc, 'property="og:image"')).toBe('https://cdn.example/preview.png')
    expect(metaContent(doc, 'property="og:url"')).toBe(`${PUBLIC_URL}/${flow.publicId}`)
    expect(metaContent(doc, 'name="twitter:card"')).toBe('summary_large_image')
    expect(metaContent(doc, 'name="twitter:image"')).toBe('https://cdn.example/preview.png')
    expect(doc.querySelector('link[rel="icon"]')?.getAttribute('href')).toBe('https://cdn.example/favicon.png')
    expect(doc.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(`${PUBLIC_URL}/${flow.publicId}`)

    // The body is the chat, in the page's main landmark under its (unseen) heading, and nothing
    // else; the page script runs before the widget bundle.
    expect([...doc.body.children].map((el) => el.tagName.toLowerCase())).toEqual(['main'])
    expect([...doc.querySelector('main')!.children].map((el) => el.tagName.toLowerCase())).toEqual(['h1', 'noscript', 'flow-chat'])
    expect(doc.querySelector('h1')?.textContent).toBe('Book a demo')
    expect(doc.querySelector('flow-chat')?.getAttribute('label')).toBe('Book a demo')
    const chat = doc.querySelector('flow-chat')!
    expect(chat.getAttribute('flow')).toBe(flow.publicId)
    expect(chat.getAttribute('token')).toMatch(/^fs_pk_/)
    expect(scriptSources(doc)).toEqual(['/share/v1/share.js', '/widget/v1/flow-chat.js'])
    expect([...doc.querySelectorAll('script')].every((s) => s.hasAttribute('defer') && s.textContent === '')).toBe(true)

    expect(directive(csp, 'script-src')).toBe("script-src 'self'")
    expect(directive(csp, 'style-src')).toBe("style-src 'self'")
    expect(directive(csp, 'default-src')).toBe("default-src 'self'")
    expect(csp).not.toContain('frame-ancestors')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('falls back to the flow name, without a preview image, and with an empty favicon', async () => {
    const flow = await sharedFlow(shareOn(), { name: 'Support triage' })
    const { doc } = await page(`/${flow.publicId}`)
    expect(doc.title).toBe('Support triage')
    expect(metaContent(doc, 'name="description"')).toBe('Support triage')
    expect(metaContent(doc, 'property="og:image"')).toBeUndefined()
    expect(metaContent(doc, 'name="twitter:card"')).toBe('summary')
    // No favicon request reaches the service for a page whose flow has none.
    expect(doc.querySelector('link[rel="icon"]')?.getAttribute('href')).toBe('data:,')
  })

  it('accepts an inline image favicon', async () => {
    const icon = 'data:image/png;base64,iVBORw0KGgo='
    const flow = await sharedFlow(shareOn({ metadata: { favIconUrl: icon } }))
    const { doc } = await page(`/${flow.publicId}`)
    expect(doc.querySelector('link[rel="icon"]')?.getAttribute('href')).toBe(icon)
  })

  it('answers on the flow id too, naming the public id as canonical and to the widget', async () => {
    const flow = await sharedFlow(shareOn())
    const { doc } = await page(`/${flow.id}`)
    expect(doc.querySelector('flow-chat')?.getAttribute('flow')).toBe(flow.publicId)
    expect(doc.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(`${PUBLIC_URL}/${flow.publicId}`)
  })

  it("gives the widget a token of the flow's workspace, which reads that flow", async () => {
    const flow = await sharedFlow(shareOn())
    const { doc } = await page(`/${flow.publicId}`)
    const token = doc.querySelector('flow-chat')!.getAttribute('token')!
    const read = await state.svc.call('GET', `/v1/flows/${flow.publicId}/publishedFlow`, { token })
    expect(read.status).toBe(200)
    expect(read.body.publishedFlow.flowId).toBe(flow.id)
  })

  it("says the chat is not available once the workspace revoked its share pages' token, and mints none", async () => {
    const flow = await sharedFlow(shareOn())
    await page(`/${flow.publicId}`)
    const secret = { token: state.svc.tokens.secret }
    const shareTokens = async () =>
      ((await state.svc.call('GET', '/v1/tokens', secret)).body.tokens as { id: string; label: string }[]).filter(
        (token) => token.label === 'share-page',
      )
    const [minted] = await shareTokens()
    expect((await state.svc.call('DELETE', `/v1/tokens/${minted!.id}`, secret)).status).toBe(200)
    const res = await get(`/${flow.publicId}`)
    expect(res.status).toBe(403)
    expect(await res.text()).toContain('This chat is not available')
    expect(await shareTokens()).toEqual([])
  })

  it('tells the page script to hide query parameters only when the flow says so', async () => {
    const hiding = await sharedFlow(shareOn({ general: { isHideQueryParamsEnabled: true } }))
    const byDefault = await sharedFlow(shareOn())
    const keeping = await sharedFlow(shareOn({ general: { isHideQueryParamsEnabled: false } }))
    const pageScript = async (ref: string) => (await page(`/${ref}`)).doc.querySelector('script[src="/share/v1/share.js"]')!
    expect((await pageScript(hiding.publicId)).hasAttribute('data-hide-query-params')).toBe(true)
    // By default the address keeps what filled the page: a link's words are not the flow's.
    expect((await pageScript(byDefault.publicId)).hasAttribute('data-hide-query-params')).toBe(false)
    expect((await pageScript(keeping.publicId)).hasAttribute('data-hide-query-params')).toBe(false)
  })
})

describe('hostile metadata', () => {
  it.each(HOSTILE_METADATA)('$attack ($field) is $expect', async ({ field, value, expect: outcome }) => {
    const metadata = field === 'name' ? {} : { [field]: value }
    const flow = await sharedFlow(shareOn({ metadata }), field === 'name' ? { name: value } : {})
    const { doc, csp, html } = await page(`/${flow.publicId}`)

    // Whatever the value, the page has exactly its own scripts and no event handler anywhere.
    expect(scriptSources(doc)).toEqual(['/share/v1/share.js', '/widget/v1/flow-chat.js'])
    expect(eventHandlerAttributes(doc)).toEqual([])
    expect([...doc.body.children].map((el) => el.tagName.toLowerCase())).toEqual(['main'])
    expect([...doc.querySelector('main')!.children].map((el) => el.tagName.toLowerCase())).toEqual(['h1', 'noscript', 'flow-chat'])

    if (field === 'title' || field === 'name') expect(doc.title).toBe(value.trim())
    if (field === 'description') expect(metaContent(doc, 'name="description"')).toBe(value)
    if (field === 'imageUrl') {
      expect(metaContent(doc, 'property="og:image"')).toBeUndefined()
      expect(metaContent(doc, 'name="twitter:image"')).toBeUndefined()
    }
    if (field === 'favIconUrl') expect(doc.querySelector('link[rel="icon"]')?.getAttribute('href')).toBe('data:,')
    if (field === 'tagManagerId') expect(csp).not.toContain('googletagmanager')
    if (outcome === 'dropped') {
      expect(html).not.toContain(value.trim())
      expect(html).not.toContain(escapeHtml(value.trim()))
    }
  })

  it.each(QUOTED_URLS)('$attack stays inside its attribute', async ({ field, value }) => {
    const flow = await sharedFlow(shareOn({ metadata: { [field]: value } }))
    const { doc } = await page(`/${flow.publicId}`)
    expect(scriptSources(doc)).toEqual(['/share/v1/share.js', '/widget/v1/flow-chat.js'])
    expect(eventHandlerAttributes(doc)).toEqual([])
    if (field === 'favIconUrl') expect(doc.querySelector('link[rel="icon"]')?.getAttribute('href')).toBe(value)
    else expect(metaContent(doc, 'property="og:image"')).toBe(new URL(value).href)
  })
})

async function expectStatusPage(path: string, status: number, text: RegExp) {
  const res = await get(path)
  expect(res.status).toBe(status)
  expect(res.headers.get('content-type')).toMatch(/^text\/html/)
  const html = await res.text()
  const doc = parsePage(html)
  expect(doc.querySelector('h1')?.textContent).toMatch(text)
  expect(doc.querySelectorAll('script')).toHaveLength(0)
  expect(res.headers.get('content-security-policy')).toContain("default-src 'none'")
  expect(() => JSON.parse(html)).toThrow()
  return res
}

describe('when there is no page to show', () => {
  it('answers 404 with a friendly page for unknown, unpublished and unshared flows', async () => {
    await expectStatusPage('/no-such-flow', 404, /not found/i)
    const unpublished = await importOverHttp(state.svc, greetingFlow({ settings: shareOn() }))
    await expectStatusPage(`/${unpublished.publicId}`, 404, /not found/i)
    for (const settings of [{}, { publicShare: { isEnabled: false } }, { publicShare: null }]) {
      const flow = await sharedFlow(settings)
      await expectStatusPage(`/${flow.publicId}`, 404, /not found/i)
    }
  })

  it('follows the live published version, not the draft', async () => {
    const flow = await sharedFlow({ publicShare: { isEnabled: false } })
    const enable = await state.svc.call('PATCH', `/v1/flows/${flow.id}`, {
      token: state.svc.tokens.secret,
      json: { flow: { settings: shareOn() } },
    })
    expect(enable.status).toBe(200)
    await expectStatusPage(`/${flow.publicId}`, 404, /not found/i)
    await publishOverHttp(state.svc, flow.id)
    expect((await get(`/${flow.publicId}`)).status).toBe(200)

    await state.svc.call('PATCH', `/v1/flows/${flow.id}`, { token: state.svc.tokens.secret, json: { flow: { settings: {} } } })
    await publishOverHttp(state.svc, flow.id)
    await expectStatusPage(`/${flow.publicId}`, 404, /not found/i)
  })

  it('answers 410 for a closed flow', async () => {
    const flow = await sharedFlow(shareOn())
    await state.svc.call('PATCH', `/v1/flows/${flow.id}`, { token: state.svc.tokens.secret, json: { flow: { isClosed: true } } })
    await expectStatusPage(`/${flow.publicId}`, 410, /closed/i)
  })

  it('leaves paths that cannot name a flow to later routes', async () => {
    const app = new Hono()
    registerShareRoutes(app, { store: state.svc.store, config: state.svc.config })
    app.get('/favicon.ico', (c) => c.body(null, 204))
    expect((await app.request('/favicon.ico')).status).toBe(204)
  })

  it('answers 429 with Retry-After when one visitor reloads too fast', async () => {
    const flow = await sharedFlow(shareOn())
    const limiter = new RateLimiter({ perMinute: 60, burst: 1 }, state.svc.clock.now, state.svc.store.rateLimits)
    const app = shareApp({ limiters: { chat: limiter } })
    expect((await get(`/${flow.publicId}`, {}, app)).status).toBe(200)
    const res = await get(`/${flow.publicId}`, {}, app)
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('1')
    expect(parsePage(await res.text()).querySelector('h1')?.textContent).toMatch(/too many/i)
  })
})

describe('allowed origins', () => {
  it('refuses the page with a friendly 403 when its own origin is not allowed to chat', async () => {
    const flow = await sharedFlow(shareOn({ security: { allowedOrigins: ['https://shop.example'] } }))
    await expectStatusPage(`/${flow.publicId}`, 403, /not available/i)
  })

  it('serves it when its origin is listed, and lets only the listed sites frame it', async () => {
    const allowedOrigins = ['https://shop.example', PUBLIC_URL, 'https://a.example; script-src *']
    const flow = await sharedFlow(shareOn({ security: { allowedOrigins } }))
    const { csp } = await page(`/${flow.publicId}`)
    expect(directive(csp, 'frame-ancestors')).toBe(`frame-ancestors 'self' https://shop.example ${PUBLIC_URL}`)
    expect(directive(csp, 'script-src')).toBe("script-src 'self'")
  })

  it('judges the origin a trusted proxy forwards', async () => {
    // Without PUBLIC_URL the page's origin is the request's, as the trusted proxy forwards it.
    const flow = await sharedFlow(shareOn({ security: { allowedOrigins: ['https://proxied.example'] } }))
    const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'proxied.example' }
    const trusting = shareApp({ config: { ...state.svc.config, publicUrl: undefined } })
    expect((await get(`/${flow.publicId}`, forwarded, trusting)).status).toBe(200)
    const untrusting = shareApp({ config: { ...state.svc.config, publicUrl: undefined, trustProxyHops: 0 } })
    expect((await get(`/${flow.publicId}`, forwarded, untrusting)).status).toBe(403)
  })
})

describe('the page script and stylesheet', () => {
  it('are served with their type, cached and revalidated by ETag', async () => {
    for (const [path, type] of [
      ['/share/v1/share.js', /^text\/javascript/],
      ['/share/v1/share.css', /^text\/css/],
    ] as const) {
      const res = await get(path)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(type)
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      const etag = res.headers.get('etag')!
      expect((await get(path, { 'if-none-match': etag })).status).toBe(304)
    }
  })
})
