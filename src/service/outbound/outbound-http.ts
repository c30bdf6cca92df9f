import { lookup } from 'node:dns/promises'
import { Agent, buildConnector, fetch as undiciFetch } from 'undici'
import { AllowList, bareHost, isRefusedHostName, parseAddress, refusedRangeOf } from './address-policy'

/**
 * Every HTTP call the service makes for a flow (HTTP request blocks, AI APIs) goes through here:
 * the address is checked when each connection opens, after DNS resolution, and the connection
 * is made to the very address checked (no second lookup an attacker's DNS could answer
 * differently). Redirects are followed one hop at a time, each hop a new check. Every call has a
 * deadline and a response size cap.
 */

export type OutboundFailure = 'refused' | 'timeout' | 'too-large' | 'network' | 'invalid-url' | 'too-many-redirects'

export class OutboundError extends Error {
  constructor(
    readonly failure: OutboundFailure,
    message: string,
  ) {
    super(message)
    this.name = 'OutboundError'
  }
}

export interface OutboundRequest {
  url: string
  method?: string
  headers?: Record<string, string>
  body?: string
  timeoutMs: number
  maxResponseBytes: number
}

export interface OutboundResponse {
  status: number
  headers: Headers
  /** The address that answered, after redirects. */
  url: string
  body: Buffer
}

export interface OutboundHttp {
  /** One call with its body read in full, within the deadline and the size cap. */
  request(request: OutboundRequest): Promise<OutboundResponse>
  /**
   * A `fetch` for client libraries (an OpenAI-compatible SDK): the same checks, redirects hop by
   * hop, a deadline (the caller's signal or `defaultTimeoutMs`) and a capped, streamed body.
   */
  fetch(input: string | URL, init?: RequestInit & { timeoutMs?: number; maxResponseBytes?: number }): Promise<Response>
  /** A checked address to open a non-HTTP connection to (SMTP); throws `OutboundError` when refused. */
  resolveHost(hostname: string): Promise<string>
  close(): Promise<void>
}

export interface OutboundOptions {
  allow?: AllowList
  /** Name → addresses, the system resolver by default (tests give names addresses of their own). */
  resolve?: (hostname: string) => Promise<string[]>
  maxRedirects?: number
  defaultTimeoutMs?: number
  defaultMaxResponseBytes?: number
}

/** Longest any outgoing call may take, and the default response cap (about 2 MiB). */
export const MAX_OUTBOUND_TIMEOUT_MS = 120_000
export const DEFAULT_MAX_RESPONSE_BYTES = 2 * 1024 * 1024
const DEFAULT_MAX_REDIRECTS = 5
const REDIRECTS = new Set([301, 302, 303, 307, 308])

const systemResolve = async (hostname: string) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address)

export function createOutboundHttp(options: OutboundOptions = {}): OutboundHttp {
  const allow = options.allow ?? new AllowList()
  const resolve = options.resolve ?? systemResolve
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS
  const defaults = {
    timeoutMs: options.defaultTimeoutMs ?? MAX_OUTBOUND_TIMEOUT_MS,
    maxResponseBytes: options.defaultMaxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
  }

  const resolveHost = async (hostname: string): Promise<string> => {
    const host = bareHost(hostname)
    const allowed = allow.allowsHost(host)
    if (parseAddress(host)) {
      if (!allowed) assertAllowedAddress(host, host, allow)
      return host
    }
    if (!allowed && isRefusedHostName(host)) throw refused(host, 'a name reserved for the local machine or a metadata service')
    let addresses: string[]
    try {
      addresses = await resolve(host)
    } catch (error) {
      throw new OutboundError('network', `Could not resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`)
    }
    if (addresses.length === 0) throw new OutboundError('network', `${host} has no address`)
    // Every address is checked: a name with one private address among public ones is refused.
    if (!allowed) for (const address of addresses) assertAllowedAddress(host, address, allow)
    return addresses[0]!
  }

  const connect = buildConnector({ timeout: 10_000 })
  const agent = new Agent({
    connect: (connectOptions, callback) => {
      resolveHost(connectOptions.hostname).then(
        // `host` keeps the name: TLS verifies the certificate against it (SNI), not the address.
        (address) => connect({ ...connectOptions, hostname: address }, callback),
        (error: Error) => callback(error, null),
      )
    },
  })

  const guardedFetch: OutboundHttp['fetch'] = async (input, init = {}) => {
    const timeoutMs = Math.min(init.timeoutMs ?? defaults.timeoutMs, MAX_OUTBOUND_TIMEOUT_MS)
    const maxResponseBytes = init.maxResponseBytes ?? defaults.maxResponseBytes
    const deadline = AbortSignal.timeout(timeoutMs)
    const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline
    let url = parseUrl(String(input))
    let method = (init.method ?? 'GET').toUpperCase()
    let body = init.body
    const headers = new Headers(init.headers)
    for (let hop = 0; ; hop++) {
      let response: Awaited<ReturnType<typeof undiciFetch>>
      try {
        response = await undiciFetch(url, {
          method,
          headers: headers as never,
          body: body as never,
          redirect: 'manual',
          signal,
          dispatcher: agent,
        })
      } catch (error) {
        throw describeFailure(error, deadline, timeoutMs)
      }
      const location = response.headers.get('location')
      if (!REDIRECTS.has(response.status) || location === null) {
        return capped(response as unknown as Response, maxResponseBytes, deadline, timeoutMs)
      }
      await response.body?.cancel().catch(() => undefined)
      if (hop >= maxRedirects) throw new OutboundError('too-many-redirects', `More than ${maxRedirects} redirects`)
      const next = parseUrl(new URL(location, url).href)
      // Credentials never follow a redirect to another origin.
      if (next.origin !== url.origin) {
        headers.delete('authorization')
        headers.delete('cookie')
      }
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        method = method === 'HEAD' ? 'HEAD' : 'GET'
        body = undefined
        headers.delete('content-type')
        headers.delete('content-length')
      }
      url = next
    }
  }

  return {
    fetch: guardedFetch,
    resolveHost,
    async request(request) {
      const response = await guardedFetch(request.url, {
        method: request.method ?? 'GET',
        headers: request.headers ?? {},
        ...(request.body === undefined ? {} : { body: request.body }),
        timeoutMs: request.timeoutMs,
        maxResponseBytes: request.maxResponseBytes,
      })
      let body: Buffer
      try {
        body = Buffer.from(await response.arrayBuffer())
      } catch (error) {
        throw error instanceof OutboundError ? error : describeFailure(error, undefined, request.timeoutMs)
      }
      return { status: response.status, headers: response.headers, url: response.url, body }
    },
    close: () => agent.close(),
  }
}

function parseUrl(text: string): URL {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new OutboundError('invalid-url', `Not a valid URL: ${text.slice(0, 200)}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError('invalid-url', `Only http and https addresses can be called (got ${url.protocol})`)
  }
  if (url.username !== '' || url.password !== '') {
    throw new OutboundError('invalid-url', 'Credentials in the URL are not sent; use an Authorization header')
  }
  return url
}

function assertAllowedAddress(host: string, address: string, allow: AllowList): void {
  if (allow.allowsAddress(address)) return
  const range = refusedRangeOf(address)
  if (range) throw refused(host, `${address} is in ${range.cidr}, ${range.name}`)
}

function refused(host: string, why: string): OutboundError {
  return new OutboundError('refused', `Refused to connect to ${host}: ${why}`)
}

/** Finds our own error in undici's `fetch failed` chain, or names what happened. */
function describeFailure(error: unknown, deadline: AbortSignal | undefined, timeoutMs: number): OutboundError {
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof OutboundError) return cause
  }
  const name = error instanceof Error ? error.name : ''
  if (deadline?.aborted || name === 'TimeoutError') {
    return new OutboundError('timeout', `No complete answer within ${Math.round(timeoutMs / 100) / 10} s`)
  }
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error
  const code = (cause as NodeJS.ErrnoException | undefined)?.code
  const message = cause instanceof Error ? cause.message : String(cause)
  return new OutboundError('network', code ? `${code}: ${message}` : message)
}

/** The response with a body that errors once it passes `maxBytes` or the deadline. */
function capped(response: Response, maxBytes: number, deadline: AbortSignal, timeoutMs: number): Response {
  const declared = Number(response.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > maxBytes) {
    void response.body?.cancel().catch(() => undefined)
    throw tooLarge(maxBytes)
  }
  if (!response.body) return response
  let seen = 0
  const limit = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.byteLength
      if (seen > maxBytes) controller.error(tooLarge(maxBytes))
      else controller.enqueue(chunk)
    },
  })
  const body = mapErrors(response.body.pipeThrough(limit), deadline, timeoutMs)
  const wrapped = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
  Object.defineProperty(wrapped, 'url', { value: response.url })
  return wrapped
}

/** A stream whose failures are `OutboundError`s, so callers reading it see why it stopped. */
function mapErrors(stream: ReadableStream<Uint8Array>, deadline: AbortSignal, timeoutMs: number): ReadableStream<Uint8Array> {
  const reader = stream.getReader()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read()
        if (done) controller.close()
        else controller.enqueue(value)
      } catch (error) {
        controller.error(error instanceof OutboundError ? error : describeFailure(error, deadline, timeoutMs))
      }
    },
    cancel: (reason) => reader.cancel(reason),
  })
}

function tooLarge(maxBytes: number): OutboundError {
  return new OutboundError('too-large', `The answer is larger than ${maxBytes} bytes`)
}
