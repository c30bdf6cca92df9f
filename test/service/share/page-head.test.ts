import { describe, expect, it } from 'vitest'
import { HOSTILE_HEAD_CODE } from './hostile-head-meta'
import { eventHandlerAttributes, metaContent, parsePage, scriptSources } from './page-dom'
import { directive, PUBLIC_URL, shareOn, useShareHarness } from './share-harness'

/** The share page's head: its canonical address, and where the owner's head code and tag manager run. */
const { state, shareApp, get, sharedFlow, page } = useShareHarness()

describe('canonical address', () => {
  it('comes from PUBLIC_URL, never from the Host the request names', async () => {
    const flow = await sharedFlow(shareOn())
    const res = await state.app.request(`http://evil.example/${flow.publicId}`, { headers: { 'x-forwarded-host': 'evil.example' } })
    const html = await res.text()
    const doc = parsePage(html)
    expect(doc.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(`${PUBLIC_URL}/${flow.publicId}`)
    expect(metaContent(doc, 'property="og:url"')).toBe(`${PUBLIC_URL}/${flow.publicId}`)
    expect(html).not.toContain('evil.example')
  })

  it('is left out when PUBLIC_URL is not configured', async () => {
    const flow = await sharedFlow(shareOn())
    const app = shareApp({ config: { ...state.svc.config, publicUrl: undefined } })
    const html = await (await app.request(`http://evil.example/${flow.publicId}`)).text()
    const doc = parsePage(html)
    expect(doc.querySelector('link[rel="canonical"]')).toBeNull()
    expect(metaContent(doc, 'property="og:url"')).toBeUndefined()
    expect(html).not.toContain('evil.example')
  })
})

/** The head frame the page names, fetched the way the browser would. */
async function headFrame(doc: Document) {
  const frame = doc.querySelector('iframe.share-head-frame')
  expect(frame).not.toBeNull()
  const res = await get(frame!.getAttribute('src')!)
  expect(res.status).toBe(200)
  const html = await res.text()
  return { frame: frame!, res, html, doc: parsePage(html), csp: res.headers.get('content-security-policy') ?? '' }
}

const sandboxTokens = (value: string | null | undefined) => (value ?? '').trim().split(/\s+/)

describe('code set by the flow owner (head code, tag manager)', () => {
  const code =
    '<meta name="owner-verification" content="abc123"><meta name="author" content="Acme"><script>window.ownerSnippet = 1</script>'

  it('never runs in the page: it is served raw in a frame sandboxed to an opaque origin', async () => {
    const flow = await sharedFlow(shareOn({ metadata: { customHeadCode: code } }))
    const { html, doc, csp } = await page(`/${flow.publicId}`)
    expect(html).not.toContain('ownerSnippet')
    // Its meta tags that describe the page are copied into the page's head (see below); a
    // verification tag and its script are not.
    expect(metaContent(doc, 'name="author"')).toBe('Acme')
    expect(metaContent(doc, 'name="owner-verification"')).toBeUndefined()
    expect(scriptSources(doc)).toEqual(['/share/v1/share.js', '/widget/v1/flow-chat.js'])
    expect(directive(csp, 'script-src')).toBe("script-src 'self'")
    expect(directive(csp, 'style-src')).toBe("style-src 'self'")

    const head = await headFrame(doc)
    expect(head.frame.getAttribute('src')).toBe(`/share/v1/head/${flow.publicId}`)
    expect(head.frame.hasAttribute('hidden')).toBe(true)
    expect(head.frame.getAttribute('referrerpolicy')).toBe('no-referrer')
    // Sandboxed by the element and by the frame's own policy, never with allow-same-origin.
    const attribute = sandboxTokens(head.frame.getAttribute('sandbox'))
    const header = sandboxTokens(directive(head.csp, 'sandbox').replace(/^sandbox/, ''))
    for (const tokens of [attribute, header]) {
      expect(tokens).toContain('allow-scripts')
      expect(tokens).not.toContain('allow-same-origin')
      expect(tokens).not.toContain('allow-top-navigation')
    }
    expect(directive(head.csp, 'frame-ancestors')).toBe("frame-ancestors 'self'")
    expect(metaContent(head.doc, 'name="owner-verification"')).toBe('abc123')
    const inline = [...head.doc.querySelectorAll('script')].filter((s) => !s.hasAttribute('src'))
    expect(inline.map((s) => s.textContent)).toEqual(['window.ownerSnippet = 1'])
  })

  it('loads a valid tag manager container with its data layer in the frame, never in the page', async () => {
    const tagged = await sharedFlow(shareOn({ metadata: { tagManagerId: ' gtm-ab12cd ' } }))
    const { doc, csp } = await page(`/${tagged.publicId}`)
    expect(scriptSources(doc)).toEqual(['/share/v1/share.js', '/widget/v1/flow-chat.js'])
    expect(csp).not.toContain('googletagmanager')
    const head = await headFrame(doc)
    expect(scriptSources(head.doc)).toEqual([null, 'https://www.googletagmanager.com/gtm.js?id=GTM-AB12CD'])
    expect(head.html).toContain("event: 'gtm.js'")
  })

  it('has no frame, and a strict policy, on pages whose owner set none (blank counts as none)', async () => {
    for (const metadata of [{}, { customHeadCode: '   \n ' }, { customHeadCode: null }, { tagManagerId: 'UA-1-1' }]) {
      const flow = await sharedFlow(shareOn({ metadata }))
      const { doc, csp } = await page(`/${flow.publicId}`)
      expect(doc.querySelector('iframe')).toBeNull()
      expect(csp).not.toContain("'unsafe-inline'")
    }
  })

  it('is not served for flows that have no page', async () => {
    const unshared = await sharedFlow({ metadata: { customHeadCode: code } })
    const res = await get(`/share/v1/head/${unshared.publicId}`)
    expect(res.status).toBe(404)
    expect(await res.text()).not.toContain('ownerSnippet')
    expect((await get('/share/v1/head/no-such-flow')).status).toBe(404)
  })
})

describe("meta tags of the owner's head code", () => {
  it.each(HOSTILE_HEAD_CODE)('$attack', async ({ code, copied }) => {
    const flow = await sharedFlow(shareOn({ metadata: { customHeadCode: code } }))
    const { doc } = await page(`/${flow.publicId}`)
    const own = new Set([
      'viewport',
      'description',
      'og:type',
      'og:url',
      'og:title',
      'og:description',
      'og:image',
      'twitter:card',
      'twitter:title',
      'twitter:description',
      'twitter:image',
    ])
    const tags = [...doc.head.querySelectorAll('meta')]
      .filter((meta) => !meta.hasAttribute('charset'))
      .map((meta) => [
        meta.hasAttribute('property') ? 'property' : 'name',
        meta.getAttribute('property') ?? meta.getAttribute('name'),
        meta.getAttribute('content'),
      ])
      .filter(([, key]) => !own.has(key!))
    expect(tags).toEqual(copied)
    // Whatever the code, the page keeps its own scripts, no handlers, and no http-equiv.
    expect(scriptSources(doc)).toEqual(['/share/v1/share.js', '/widget/v1/flow-chat.js'])
    expect(eventHandlerAttributes(doc)).toEqual([])
    expect(doc.querySelector('meta[http-equiv]')).toBeNull()
    expect(doc.querySelectorAll('meta[name="description"]').length).toBe(1)
  })
})
