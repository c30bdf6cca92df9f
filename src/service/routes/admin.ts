import type { Hono } from 'hono'
import { errorBody } from '../http/errors'
import { html } from '../http/html'
import { conditionalGet, type StaticFile, sendStaticFile } from '../http/static-files'
import { ADMIN_DIST_DIR } from '../service-files'
import { sharePagePolicy } from '../share/csp'
import { loadBuiltFiles } from '../widget/widget-files'

/** Where the console lives, and where its script and stylesheet are served. */
export const ADMIN_PATH = '/admin'
const ASSETS_PATH = `${ADMIN_PATH}/assets`

/**
 * The share page's policy (this service's scripts and styles only, no inline code; https images,
 * fonts and frames for the previewed flow), and no framing at all: the console holds a secret
 * token, so no other page may overlay or frame it.
 */
const ADMIN_POLICY = `${sharePagePolicy({ allowedOrigins: [] })}; frame-ancestors 'none'`

export interface AdminRouteOptions {
  /** The folder holding the console's build; defaults to dist/admin. */
  distDir?: string
}

const versioned = (name: string, file: StaticFile) => `${ASSETS_PATH}/${name}?v=${file.hash.slice(0, 12)}`

function adminPage(script: StaticFile, stylesheet: StaticFile): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>Flow console</title>
<link rel="stylesheet" href="${versioned('console.css', stylesheet)}">
<script type="module" src="${versioned('console.js', script)}"></script>
</head>
<body>
<noscript><p>The console needs JavaScript. Please turn it on and reload the page.</p></noscript>
<div id="console"></div>
</body>
</html>
`.toString()
}

/**
 * The owner's console (`GET /admin`): a page loading the console's own bundle, which talks to this
 * service's API with the secret token the owner signs in with. The page holds no data and no
 * token; it is never cached, never framed, and sends no referrer. The bundle is built with the
 * widget (`vite build`, into dist/admin) but is none of the widget's files.
 */
export function registerAdminRoutes(app: Hono, options: AdminRouteOptions = {}): void {
  let loaded: Map<string, StaticFile> | undefined
  const files = () => (loaded ??= loadBuiltFiles(options.distDir ?? ADMIN_DIST_DIR))
  const unbuilt = errorBody('not_found', 'The console is not built: run `npm run build` first')

  app.get(ADMIN_PATH, (c) => {
    const script = files().get('console.js')
    const stylesheet = files().get('console.css')
    if (!script || !stylesheet) return c.json(unbuilt, 404)
    c.header('Content-Security-Policy', ADMIN_POLICY)
    c.header('Cache-Control', 'no-store')
    c.header('Referrer-Policy', 'no-referrer')
    c.header('X-Frame-Options', 'DENY')
    c.header('X-Content-Type-Options', 'nosniff')
    return c.html(adminPage(script, stylesheet))
  })
  app.get(`${ADMIN_PATH}/`, (c) => c.redirect(ADMIN_PATH, 301))

  app.get(`${ASSETS_PATH}/:file`, conditionalGet, (c) => {
    const name = c.req.param('file')
    const file = files().get(name)
    if (!file) return c.json(errorBody('not_found', `No console file ${name}`), 404)
    c.header('Cache-Control', 'public, max-age=300')
    return sendStaticFile(c, file)
  })
}
