import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'

/** A file the host site answers with. */
export interface HostFile {
  body: string
  /** Default `text/html; charset=utf-8`. */
  type?: string
  headers?: Record<string, string>
}

/**
 * A site owner's web site, on **another site** than the flow service: the service listens on
 * `127.0.0.1`, this site is reached as `localhost` (another host, so another site and origin, as
 * `https://shop.example` is to `https://chat.example`), each on its own port. Browser tests put
 * their host pages here, so every one of them embeds the widget cross-site, as owners do.
 */
export interface HostSite {
  /** `http://localhost:<port>` */
  readonly origin: string
  /** Serves `file` at `path` (replacing what was there), and returns its URL. */
  serve(path: string, file: HostFile | string): string
  close(): Promise<void>
}

export async function startHostSite(fallback?: (path: string, query: URLSearchParams) => HostFile | undefined): Promise<HostSite> {
  const files = new Map<string, HostFile>()
  const app = new Hono()
  // Browsers ask for it on every page; a 404 would read as a console error.
  app.get('/favicon.ico', (c) => c.body(null, 204))
  app.get('*', (c) => {
    const url = new URL(c.req.url)
    const file = files.get(url.pathname) ?? fallback?.(url.pathname, url.searchParams)
    if (!file) return c.text('Not found', 404)
    for (const [name, value] of Object.entries(file.headers ?? {})) c.header(name, value)
    c.header('Content-Type', file.type ?? 'text/html; charset=utf-8')
    c.header('Cache-Control', 'no-store')
    return c.body(file.body)
  })
  const server = await new Promise<Server>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(started as Server)) as Server
    started.once('error', reject)
  })
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`
  return {
    origin,
    serve(path, file) {
      files.set(path, typeof file === 'string' ? { body: file } : file)
      return `${origin}${path}`
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
