import { relative } from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import type { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { getCookie, setCookie } from 'hono/cookie'
import { outboxResponseSchema } from '../../src/protocol/results'
import { HttpError } from '../../src/service/http/errors'
import { bubblePage, popupPage, severalInstancesPage } from './embed-pages'
import { OUTBOX_COOKIE, OUTBOX_COOKIE_SECONDS, outboxAccess } from './outbox-access'
import { outboxPage, outboxTokenPage } from './outbox-page'
import { indexPage, inlinePage, type PageContext } from './pages'
import type { SeededFlow } from './seed'

/**
 * The demo pages are served under a strict Content Security Policy (no inline script or style),
 * so every demo doubles as a check that the widget needs nothing more from a host page.
 */
export const DEMO_PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' https: data:",
  "media-src 'self' https:",
  "frame-src 'self' https:",
  "font-src 'self' https:",
  "connect-src 'self' https:",
].join('; ')

export interface DemoSiteOptions {
  assetsDir: string
  flows: () => SeededFlow[]
  context: (requestUrl: string) => PageContext
  /** The demo workspace's secret token, used on the server to read the outbox. */
  secretToken?: string
  /** The service has a key for the AI demo flow. */
  aiConfigured?: boolean
}

export function mountDemoSite(app: Hono, options: DemoSiteOptions): void {
  const root = process.cwd()
  app.use(
    '/demo/assets/*',
    serveStatic({
      root: relative(root, options.assetsDir),
      rewriteRequestPath: (path) => path.replace(/^\/demo\/assets/, ''),
    }),
  )

  app.get('/', (c) => {
    c.header('Content-Security-Policy', DEMO_PAGE_CSP)
    return c.html(indexPage(options.flows(), options.context(c.req.url), { aiConfigured: options.aiConfigured === true }))
  })
  const pages = { inline: inlinePage, bubble: bubblePage, popup: popupPage }
  for (const [mode, page] of Object.entries(pages)) {
    app.get(`/demo/${mode}/:flow`, (c) => {
      const flow = options.flows().find((f) => f.publicId === c.req.param('flow') || f.flowId === c.req.param('flow'))
      if (!flow) throw new HttpError('flow_not_found', 'No demo flow with that id')
      c.header('Content-Security-Policy', DEMO_PAGE_CSP)
      return c.html(page(flow, options.context(c.req.url)))
    })
  }
  // Visitors' answers: only for whoever gives the secret token (see outbox-access.ts).
  const secretToken = options.secretToken
  const access = secretToken ? outboxAccess(secretToken) : undefined
  app.get('/demo/outbox', async (c) => {
    c.header('Content-Security-Policy', DEMO_PAGE_CSP)
    if (!secretToken || !access) return c.html(outboxPage(undefined))
    if (!access.admits(getCookie(c, OUTBOX_COOKIE))) return c.html(outboxTokenPage())
    const response = await app.request('/v1/outbox?limit=50', { headers: { authorization: `Bearer ${secretToken}` } })
    c.header('Cache-Control', 'no-store')
    return c.html(outboxPage(outboxResponseSchema.parse(await response.json()).emails))
  })
  app.post('/demo/outbox', bodyLimit({ maxSize: 4096, onError: (c) => c.text('Payload too large', 413) }), async (c) => {
    c.header('Content-Security-Policy', DEMO_PAGE_CSP)
    const form = await c.req.parseBody()
    if (!access?.isSecretToken(form.token)) return c.html(outboxTokenPage({ wrongToken: true }), 401)
    setCookie(c, OUTBOX_COOKIE, access.cookie, {
      maxAge: OUTBOX_COOKIE_SECONDS,
      path: '/demo/outbox',
      httpOnly: true,
      sameSite: 'Strict',
      secure: new URL(c.req.url).protocol === 'https:',
    })
    return c.redirect('/demo/outbox', 303)
  })
  app.get('/demo/several', (c) => {
    c.header('Content-Security-Policy', DEMO_PAGE_CSP)
    return c.html(severalInstancesPage(options.flows(), options.context(c.req.url)))
  })
}
