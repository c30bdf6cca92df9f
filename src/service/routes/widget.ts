import type { Context, Hono } from 'hono'
import { errorBody } from '../http/errors'
import { conditionalGet, sendStaticFile } from '../http/static-files'
import { WIDGET_DIST_DIR } from '../service-files'
import { loadBuiltFiles } from '../widget/widget-files'

/**
 * Where the service serves the widget: the path names the widget's major version, so a page that
 * embeds `/widget/v1/flow-chat.js` keeps a compatible widget across updates. `/dist/` is the same
 * files, for embeds written before the versioned path.
 */
export const WIDGET_BASE_PATH = '/widget/v1'
const LEGACY_BASE_PATH = '/dist'

/**
 * Entry scripts keep their names across releases: a page must see a fix soon (five minutes), and
 * asks again with its ETag after that (a 304 when nothing changed). Chunks are named by their
 * content and never change: a year, without asking again.
 */
const ENTRY_CACHE = 'public, max-age=300'
const CHUNK_CACHE = 'public, max-age=31536000, immutable'

/** `flow-chat-launchers-1a2b3c4d.mjs`: the build names chunks by their content (lazy-chunks.ts). */
const HASHED = /-[0-9a-f]{8}\.mjs$/

export interface WidgetRouteOptions {
  /** The folder holding the built widget; defaults to the repository's dist/. */
  distDir?: string
}

/**
 * Serves the widget to any site: `GET /widget/v1/{file}` (and `/dist/{file}`) for the script,
 * the module build, their lazy chunks and source maps. Every page may load them (CORS `*`, CORP
 * `cross-origin`: the module build and the chunks are fetched in CORS mode, and a classic script
 * from another site loads its chunks as modules); compressed at build time (brotli or gzip by
 * `Accept-Encoding`); `nosniff` with exact types. A service started before the widget was built
 * answers 404 there, saying so.
 */
export function registerWidgetRoutes(app: Hono, options: WidgetRouteOptions = {}): void {
  // Read on the first request: an app made for a test that never asks pays nothing.
  let loaded: ReturnType<typeof loadBuiltFiles> | undefined
  const unbuilt = errorBody('not_found', 'The widget is not built: run `npm run build` first')

  const serve = (c: Context) => {
    const name = c.req.param('file') ?? ''
    const files = (loaded ??= loadBuiltFiles(options.distDir ?? WIDGET_DIST_DIR))
    const file = files.get(name)
    if (!file) return c.json(files.size === 0 ? unbuilt : errorBody('not_found', `No widget file ${name}`), 404)
    c.header('Cache-Control', HASHED.test(name) ? CHUNK_CACHE : ENTRY_CACHE)
    c.header('Access-Control-Allow-Origin', '*')
    c.header('Cross-Origin-Resource-Policy', 'cross-origin')
    // Pages may measure what the widget costs them (Resource Timing's sizes and phases).
    c.header('Timing-Allow-Origin', '*')
    return sendStaticFile(c, file)
  }
  for (const base of [WIDGET_BASE_PATH, LEGACY_BASE_PATH]) app.get(`${base}/:file`, conditionalGet, serve)
}
