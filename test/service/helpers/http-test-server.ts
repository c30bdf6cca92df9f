import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A request the test server received, as it arrived. */
export interface ReceivedRequest {
  method: string
  path: string
  query: URLSearchParams
  headers: IncomingMessage['headers']
  body: string
}

export interface HttpTestServer {
  /** `http://127.0.0.1:PORT` */
  origin: string
  port: number
  received: ReceivedRequest[]
  /** Requests received on `path` (without query). */
  hits(path: string): ReceivedRequest[]
  close(): Promise<void>
}

/**
 * A real HTTP server on loopback speaking plain HTTP/1.1, for outgoing-call tests:
 * - `/echo` answers `{method, headers, query, body, json?}` of what it received;
 * - `/json?value=<json>` answers that JSON; `/text?value=…` answers text/plain;
 * - `/status/<code>` answers that status with a JSON body `{error: "…"}`;
 * - `/hang` never answers; `/slow-body` sends headers and then never finishes;
 * - `/big?mb=<n>` streams n MiB without a Content-Length; `/big-declared?mb=<n>` declares it;
 * - `/redirect?to=<url>&status=<code>` redirects; `/invalid-json` sends broken JSON as JSON.
 */
export async function startHttpTestServer(): Promise<HttpTestServer> {
  const received: ReceivedRequest[] = []
  const open = new Set<ServerResponse>()
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://test')
      const request: ReceivedRequest = {
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      received.push(request)
      open.add(res)
      res.on('close', () => open.delete(res))
      answer(request, res)
    })
  })
  server.keepAliveTimeout = 1_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    received,
    hits: (path) => received.filter((request) => request.path === path),
    async close() {
      for (const res of open) res.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

function answer(request: ReceivedRequest, res: ServerResponse): void {
  const { path, query } = request
  const status = /^\/status\/(\d{3})$/.exec(path)
  if (path === '/echo') {
    let json: unknown
    try {
      json = JSON.parse(request.body)
    } catch {
      json = undefined
    }
    return void sendJson(res, 200, {
      method: request.method,
      headers: request.headers,
      query: [...query.entries()],
      body: request.body,
      ...(json === undefined ? {} : { json }),
    })
  }
  if (path === '/json') return void sendJson(res, 200, JSON.parse(query.get('value') ?? 'null'))
  if (path === '/text') {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
    return void res.end(query.get('value') ?? '')
  }
  if (status) return void sendJson(res, Number(status[1]), { error: `status ${status[1]}` })
  if (path === '/hang') return
  if (path === '/slow-body') {
    res.writeHead(200, { 'content-type': 'application/json' })
    return void res.write('{"partial":')
  }
  if (path === '/big' || path === '/big-declared') return void streamBig(res, Number(query.get('mb') ?? '1'), path === '/big-declared')
  if (path === '/redirect') {
    res.writeHead(Number(query.get('status') ?? '302'), { location: query.get('to') ?? '/' })
    return void res.end()
  }
  if (path === '/invalid-json') {
    res.writeHead(200, { 'content-type': 'application/json' })
    return void res.end('{"not": json')
  }
  sendJson(res, 404, { error: 'not found' })
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(value))
}

/** Writes `mb` MiB in 64 KiB chunks, respecting back-pressure, until done or the client leaves. */
function streamBig(res: ServerResponse, mb: number, declare: boolean): void {
  const chunk = Buffer.alloc(64 * 1024, 'a')
  let left = mb * 16
  res.writeHead(200, { 'content-type': 'text/plain', ...(declare ? { 'content-length': String(mb * 1024 * 1024) } : {}) })
  const pump = () => {
    while (left > 0 && !res.destroyed) {
      left--
      if (!res.write(chunk)) return void res.once('drain', pump)
    }
    if (!res.destroyed) res.end()
  }
  pump()
}
