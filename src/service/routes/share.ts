import { join } from 'node:path'
import type { Context, Hono } from 'hono'
import type { ServiceConfig } from '../config'
import { findLiveFlow } from '../flows/live-flow'
import { PublishedVersions } from '../flows/published-versions'
import { clientKey } from '../http/client-address'
import { isOriginAllowed } from '../http/cors'
import { HttpError } from '../http/errors'
import type { RateLimiter } from '../http/rate-limit'
import { conditionalGet, readStaticFile, type StaticFile, sendStaticFile } from '../http/static-files'
import { isResourceRef } from '../ids'
import { serviceFile } from '../service-files'
import { STATUS_PAGE_POLICY, sharePagePolicy } from '../share/csp'
import { HEAD_FRAME_POLICY, headFrameHtml, headFramePath, needsHeadFrame } from '../share/head-frame'
import { headMetaTags } from '../share/head-meta'
import { pageMetadata } from '../share/head-tags'
import { pageLanguage } from '../share/page-language'
import { pageOrigin } from '../share/page-origin'
import { sharePage } from '../share/share-page'
import { readShareSettings, type ShareSettings } from '../share/share-settings'
import { createShareTokens, type ShareTokenSource } from '../share/share-token'
import {
  CLOSED_PAGE,
  NOT_FOUND_PAGE,
  ORIGIN_REFUSED_PAGE,
  rateLimitedPage,
  type StatusPage,
  statusPageHtml,
  TOKEN_REVOKED_PAGE,
} from '../share/status-page'
import { tagManagerId } from '../share/tag-manager'
import type { FlowHead } from '../store/chat-steps-repository'
import type { Store } from '../store/store'
import { WIDGET_BASE_PATH } from './widget'

/** Where the share page's own script and stylesheet are served; `v1` versions their contract. */
export const SHARE_ASSETS_PATH = '/share/v1'
export const DEFAULT_WIDGET_SCRIPT_URL = `${WIDGET_BASE_PATH}/flow-chat.js`

const DEFAULT_ASSETS_DIR = serviceFile('share/assets')

/** An `AppContext` fits as it is; tests and other hosts pass just these parts. */
export interface ShareRouteOptions {
  store: Pick<Store, 'chatSteps' | 'publishedFlows' | 'tokens' | 'workspaces'>
  config: Pick<ServiceConfig, 'publishableToken' | 'trustProxyHops' | 'publicUrl'>
  now?: () => Date
  /** Page views count against the chat limit, per visitor address, when given. */
  limiters?: { chat: RateLimiter }
  /** The folder holding the page's script and stylesheet; defaults to share/assets. */
  assetsDir?: string
  /** The widget's classic bundle; the host serving this app serves it (npm start: /dist/). */
  widgetScriptUrl?: string
  shareTokens?: ShareTokenSource
  /** Parsed published versions (shared with the chat routes in an app). */
  versions?: PublishedVersions
}

type Lookup = { page: StatusPage } | { flow: FlowHead; settings: ShareSettings }

/**
 * `GET /{publicId}` (or the flow's id): the flow's full-page chat when its live published version
 * has `settings.publicShare.isEnabled`, else a friendly HTML status page. Only single path
 * segments that can name a flow are taken: `/favicon.ico`, `/robots.txt` and the like go on to
 * later routes. Register it after any other single-segment route that looks like an id.
 */
export function registerShareRoutes(app: Hono, options: ShareRouteOptions): void {
  const { store, config } = options
  const now = options.now ?? (() => new Date())
  const dir = options.assetsDir ?? DEFAULT_ASSETS_DIR
  const hint = 'assetsDir must be the folder that holds share.js and share.css'
  const script = readStaticFile(join(dir, 'share.js'), 'text/javascript; charset=utf-8', hint)
  const stylesheet = readStaticFile(join(dir, 'share.css'), 'text/css; charset=utf-8', hint)
  const assets = {
    script: `${SHARE_ASSETS_PATH}/share.js`,
    stylesheet: `${SHARE_ASSETS_PATH}/share.css`,
    widgetScript: options.widgetScriptUrl ?? DEFAULT_WIDGET_SCRIPT_URL,
  }
  const widgetOrigin = absoluteOrigin(assets.widgetScript)
  const versions = options.versions ?? new PublishedVersions(store.publishedFlows)
  const tokens =
    options.shareTokens ??
    createShareTokens({ tokens: store.tokens, workspaces: store.workspaces, configuredToken: config.publishableToken, now })

  // Short enough that a fix reaches every visitor soon, long enough to spare repeat loads.
  const sendAsset = (c: Context, file: StaticFile) => {
    c.header('Cache-Control', 'public, max-age=600')
    return sendStaticFile(c, file)
  }
  app.get(assets.script, conditionalGet, (c) => sendAsset(c, script))
  app.get(assets.stylesheet, conditionalGet, (c) => sendAsset(c, stylesheet))

  const status = (c: Context, page: StatusPage) => {
    c.header('Content-Security-Policy', STATUS_PAGE_POLICY)
    c.header('Cache-Control', 'no-cache')
    c.header('X-Content-Type-Options', 'nosniff')
    return c.html(statusPageHtml(page, assets.stylesheet), page.status)
  }

  const lookup = async (ref: string): Promise<Lookup> => {
    // Unknown, archived, unpublished and unshared flows look the same from outside.
    const { flow, version, refusal } = await findLiveFlow({ store, versions }, ref, 'start', { withName: true })
    const settings = flow && version && readShareSettings(version.snapshot, flow.name)
    if (!flow || !settings?.isEnabled) return { page: NOT_FOUND_PAGE }
    if (refusal === 'closed') return { page: CLOSED_PAGE }
    return { flow, settings }
  }

  /** The flow a page request names, or the status page to answer instead (rate limit included). */
  const resolve = async (c: Context, ref: string, scope: string): Promise<Lookup> => {
    const limited = await throttle(c, options.limiters?.chat, config.trustProxyHops, scope)
    if (limited) {
      for (const [name, value] of Object.entries(limited.headers)) c.header(name, value)
      return { page: rateLimitedPage(Number(limited.headers['Retry-After'] ?? 1)) }
    }
    return lookup(ref)
  }

  // The owner's head code and tag manager, in a sandboxed document of their own (head-frame.ts).
  app.get(`${SHARE_ASSETS_PATH}/head/:publicId`, async (c) => {
    const ref = c.req.param('publicId')
    const found = isResourceRef(ref) ? await resolve(c, ref, 'share-head') : { page: NOT_FOUND_PAGE }
    if ('page' in found) return status(c, found.page)
    const { metadata } = found.settings
    c.header('Content-Security-Policy', HEAD_FRAME_POLICY)
    c.header('Cache-Control', 'no-cache')
    c.header('X-Content-Type-Options', 'nosniff')
    c.header('Referrer-Policy', 'no-referrer')
    return c.html(headFrameHtml({ tagManagerId: tagManagerId(metadata.tagManagerId), customHeadCode: metadata.customHeadCode }))
  })

  app.get('/:publicId', async (c, next) => {
    const ref = c.req.param('publicId')
    if (!isResourceRef(ref)) return next()
    const found = await resolve(c, ref, 'share')
    if ('page' in found) return status(c, found.page)
    const { flow, settings } = found
    const origin = config.publicUrl ? new URL(config.publicUrl).origin : pageOrigin(c, config.trustProxyHops)
    // The page's chat calls carry this origin, and the chat routes refuse it when the flow's
    // allowed origins do not list it: say so plainly instead of serving a chat that cannot start.
    if (!isOriginAllowed(origin, settings.allowedOrigins)) return status(c, ORIGIN_REFUSED_PAGE)

    const headFrame = { tagManagerId: tagManagerId(settings.metadata.tagManagerId), customHeadCode: settings.metadata.customHeadCode }
    c.header(
      'Content-Security-Policy',
      sharePagePolicy({ scriptOrigins: widgetOrigin ? [widgetOrigin] : [], allowedOrigins: settings.allowedOrigins }),
    )
    // Revalidated on every visit: a republished or unshared flow shows at once. Its language may be the visitor's.
    c.header('Cache-Control', 'no-cache')
    c.header('Vary', 'Accept-Language')
    c.header('X-Content-Type-Options', 'nosniff')
    // Query parameters may carry personal data (prefilled variables): other origins see ours only.
    c.header('Referrer-Policy', 'strict-origin-when-cross-origin')
    const token = await tokens.tokenFor(flow.workspaceId)
    if (token === undefined) return status(c, TOKEN_REVOKED_PAGE)
    return c.html(
      sharePage({
        flow: flow.publicId,
        token,
        meta: pageMetadata(settings, config.publicUrl && `${config.publicUrl}/${encodeURIComponent(flow.publicId)}`),
        headFrameUrl: needsHeadFrame(headFrame) ? headFramePath(SHARE_ASSETS_PATH, flow.publicId) : undefined,
        hideQueryParams: settings.isHideQueryParamsEnabled,
        headMeta: headMetaTags(settings.metadata.customHeadCode),
        assets,
        language: pageLanguage(settings.metadata.lang, c.req.header('Accept-Language')),
      }),
    )
  })
}

/** The 429 a page view would cause, as an error carrying `Retry-After`, or undefined. */
async function throttle(
  c: Context,
  limiter: RateLimiter | undefined,
  trustProxyHops: number,
  scope: string,
): Promise<HttpError | undefined> {
  try {
    await limiter?.consume(`${scope}:${clientKey(c, trustProxyHops)}`)
    return undefined
  } catch (error) {
    if (error instanceof HttpError && error.code === 'rate_limited') return error
    throw error
  }
}

function absoluteOrigin(url: string): string | undefined {
  try {
    return /^https?:\/\//i.test(url) ? new URL(url).origin : undefined
  } catch {
    return undefined
  }
}
