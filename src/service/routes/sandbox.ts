import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Context, Hono } from 'hono'

/** Where the script sandbox document lives; `v1` is the widget ↔ sandbox message protocol. */
export const SANDBOX_BASE_PATH = '/sandbox/v1'
export const SANDBOX_DOCUMENT_PATH = `${SANDBOX_BASE_PATH}/sandbox.html`

const SCRIPT_FILES = ['sandbox-worker.js', 'sandbox.js'] as const
/** Long enough to spare repeat visits a round trip, short enough that a fix reaches every page soon. */
const CACHE_CONTROL = 'public, max-age=600'
/** The sandbox document is the widget's (it runs in the visitor's browser); the service serves it. */
export const SANDBOX_DOCUMENT_DIR = join(import.meta.dirname, '../../widget/sandbox/document')

export interface SandboxRouteOptions {
  /** The folder holding `sandbox.html` and its scripts; defaults to the widget's sandbox document. */
  documentDir?: string
}

interface StaticFile {
  body: string
  etag: string
}

const sha256 = (text: string, encoding: 'base64' | 'base64url') =>
  createHash('sha256').update(text, 'utf8').digest(encoding)

function load(dir: string, name: string): StaticFile {
  let body: string
  try {
    body = readFileSync(join(dir, name), 'utf8')
  } catch (cause) {
    throw new Error(`The script sandbox file ${join(dir, name)} cannot be read: documentDir must be the folder that holds sandbox.html and its scripts`, { cause })
  }
  return { body, etag: `"${sha256(body, 'base64url')}"` }
}

/**
 * The document's policy. Its scripts are allowed by digest only, so no script, module or
 * `importScripts` URL can be fetched from anywhere (not even this service); `'unsafe-eval'` is
 * what lets the Worker build a flow script into a function, and applies to this document and its
 * blob: Worker only. `sandbox allow-scripts` keeps the document in an opaque origin even where it
 * is opened without the iframe's sandbox attribute.
 */
export function sandboxCsp(scriptHashes: readonly string[], allowNetwork: boolean): string {
  return [
    "default-src 'none'",
    `script-src ${scriptHashes.map((hash) => `'${hash}'`).join(' ')} 'unsafe-eval'`,
    'worker-src blob:',
    allowNetwork ? 'connect-src http: https: ws: wss:' : "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    'sandbox allow-scripts',
  ].join('; ')
}

/** Fails at start-up, not in a visitor's browser, when sandbox.html no longer matches its scripts. */
function checkIntegrity(html: string, scripts: ReadonlyMap<string, string>): void {
  for (const [name, hash] of scripts) {
    const tag = new RegExp(`<script src="${name.replace('.', '\\.')}" integrity="([^"]+)" crossorigin="anonymous"></script>`)
    const found = tag.exec(html)?.[1]
    if (found !== hash) {
      throw new Error(
        `sandbox.html must load ${name} with integrity="${hash}" crossorigin="anonymous"` +
          (found ? ` (it says ${found}: update it after editing the script)` : ''),
      )
    }
  }
}

/**
 * Serves the script sandbox of the widget: `GET /sandbox/v1/sandbox.html` (with `?network=1`, the
 * variant whose policy lets scripts make requests) and its two scripts. Every host page must be
 * able to frame it, so there is no X-Frame-Options or frame-ancestors; being an opaque origin, it
 * loads its scripts in CORS mode, hence the CORS and CORP headers on them.
 */
export function registerSandboxRoutes(app: Hono, options: SandboxRouteOptions = {}): void {
  const dir = options.documentDir ?? SANDBOX_DOCUMENT_DIR
  const html = load(dir, 'sandbox.html')
  const scripts = new Map(SCRIPT_FILES.map((name) => [name, load(dir, name)]))
  const hashes = new Map(SCRIPT_FILES.map((name) => [name, `sha256-${sha256(scripts.get(name)!.body, 'base64')}`]))
  checkIntegrity(html.body, hashes)
  const policies = {
    strict: sandboxCsp([...hashes.values()], false),
    network: sandboxCsp([...hashes.values()], true),
  }

  const send = (c: Context, file: StaticFile, contentType: string) => {
    c.header('Cache-Control', CACHE_CONTROL)
    c.header('ETag', file.etag)
    c.header('X-Content-Type-Options', 'nosniff')
    c.header('Cross-Origin-Resource-Policy', 'cross-origin')
    c.header('Referrer-Policy', 'no-referrer')
    if (c.req.header('If-None-Match')?.split(/\s*,\s*/).includes(file.etag)) return c.body(null, 304)
    c.header('Content-Type', contentType)
    return c.body(file.body)
  }

  app.get(SANDBOX_DOCUMENT_PATH, (c) => {
    c.header('Content-Security-Policy', c.req.query('network') === '1' ? policies.network : policies.strict)
    return send(c, html, 'text/html; charset=utf-8')
  })
  for (const [name, file] of scripts) {
    app.get(`${SANDBOX_BASE_PATH}/${name}`, (c) => {
      c.header('Access-Control-Allow-Origin', '*')
      return send(c, file, 'text/javascript; charset=utf-8')
    })
  }
}
