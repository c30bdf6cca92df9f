import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Context, Hono } from 'hono'
import { isNetworkVariant, SANDBOX_BASE_PATH, SANDBOX_DOCUMENT_PATH, sandboxPolicy } from '../../protocol/sandbox-policy'
import { errorBody } from '../http/errors'
import { conditionalGet, readStaticFile, type StaticFile, sendStaticFile } from '../http/static-files'
import { WIDGET_DIST_DIR } from '../service-files'

export { SANDBOX_BASE_PATH, SANDBOX_DOCUMENT_PATH }

/** The document's one script. */
const SCRIPT_FILE = 'sandbox.js'
/** Long enough to spare repeat visits a round trip, short enough that a fix reaches every page soon. */
const CACHE_CONTROL = 'public, max-age=600'
/**
 * The sandbox document is the widget's (it runs in the visitor's browser): the widget's build
 * writes it to dist/sandbox from src/widget/sandbox/document, and the service serves it.
 */
export const SANDBOX_DOCUMENT_DIR = join(WIDGET_DIST_DIR, 'sandbox')

export interface SandboxRouteOptions {
  /** The folder holding `sandbox.html` and its script; defaults to the widget's build (dist/sandbox). */
  documentDir?: string
  /**
   * Whether a missing document answers 404 (saying why) instead of failing at start; the default
   * for the widget's build, which a service started before any `npm run build` does not have.
   */
  optional?: boolean
}

const load = (dir: string, name: string, type: string) =>
  readStaticFile(join(dir, name), type, 'documentDir must be the folder that holds sandbox.html and its script')

const text = (file: StaticFile) => new TextDecoder().decode(file.bodies.identity)

/** Fails at start-up, not in a visitor's browser, when sandbox.html no longer matches its script. */
function checkIntegrity(html: string, hash: string): void {
  const tag = new RegExp(`<script src="${SCRIPT_FILE.replace('.', '\\.')}" integrity="([^"]+)" crossorigin="anonymous"></script>`)
  const found = tag.exec(html)?.[1]
  if (found !== hash) {
    throw new Error(
      `sandbox.html must load ${SCRIPT_FILE} with integrity="${hash}" crossorigin="anonymous"` +
        (found ? ` (it says ${found}: rebuild the widget after editing the script)` : ''),
    )
  }
  if (!html.includes(`content="${sandboxPolicy([hash], { network: true, delivery: 'meta' })}"`)) {
    throw new Error('sandbox.html must carry its own Content-Security-Policy <meta>: rebuild the widget (npm run build)')
  }
}

/**
 * Serves the script sandbox of the widget: `GET /sandbox/v1/sandbox.html` (with `?network=1`, the
 * variant whose policy lets scripts make requests) and its script. Every host page must be able
 * to frame it, so there is no X-Frame-Options or frame-ancestors; being an opaque origin, it
 * loads its script in CORS mode, hence the CORS and CORP headers on it. A service started before
 * the widget was ever built answers 404 there, saying so, and serves everything else.
 */
export function registerSandboxRoutes(app: Hono, options: SandboxRouteOptions = {}): void {
  const dir = options.documentDir ?? SANDBOX_DOCUMENT_DIR
  const optional = options.optional ?? options.documentDir === undefined
  if (optional && !existsSync(join(dir, 'sandbox.html'))) {
    const unbuilt = errorBody('not_found', 'The script sandbox is not built: run `npm run build` (or `npm start`) first')
    app.get(`${SANDBOX_BASE_PATH}/*`, (c) => c.json(unbuilt, 404))
    return
  }
  const html = load(dir, 'sandbox.html', 'text/html; charset=utf-8')
  const script = load(dir, SCRIPT_FILE, 'text/javascript; charset=utf-8')
  const hash = `sha256-${createHash('sha256').update(script.bodies.identity!).digest('base64')}`
  checkIntegrity(text(html), hash)
  const policies = {
    strict: sandboxPolicy([hash], { network: false, delivery: 'header' }),
    network: sandboxPolicy([hash], { network: true, delivery: 'header' }),
  }

  const send = (c: Context, file: StaticFile) => {
    c.header('Cache-Control', CACHE_CONTROL)
    c.header('Cross-Origin-Resource-Policy', 'cross-origin')
    c.header('Referrer-Policy', 'no-referrer')
    return sendStaticFile(c, file)
  }

  app.get(SANDBOX_DOCUMENT_PATH, conditionalGet, (c) => {
    const search = new URL(c.req.url).search
    c.header('Content-Security-Policy', isNetworkVariant(search) ? policies.network : policies.strict)
    return send(c, html)
  })
  app.get(`${SANDBOX_BASE_PATH}/${SCRIPT_FILE}`, conditionalGet, (c) => {
    c.header('Access-Control-Allow-Origin', '*')
    return send(c, script)
  })
}
