import { MAX_HTTP_RESPONSE_BYTES } from '../../protocol/http-request-limits'
import { TransportError } from './errors'
import type { FetchLike } from './http'

/** A flow's HTTP request as the visitor's browser sends it (the URL already checked by the caller). */
export interface VisitorRequest {
  url: string
  method: string
  headers: Record<string, string>
  /** Sent as is when a string, else as JSON text; never for GET and HEAD. */
  body?: unknown
}

/**
 * What the flow gets back: the status and the body (JSON when it parses, else the text). `failure`
 * says why no answer came (timeout, network or CORS, too large); the status is then 500.
 */
export interface VisitorResponse {
  statusCode: number
  data: unknown
  failure?: string
}

const BODILESS = new Set(['GET', 'HEAD'])

/**
 * Sends `request` from the visitor's browser, never with the page's cookies or credentials,
 * within `timeoutMs`, reading at most `maxBytes` of the answer. Resolves for every outcome but
 * one: cancelled through `signal` (the chat went away), it rejects with an `aborted` TransportError.
 */
export async function sendVisitorRequest(
  request: VisitorRequest,
  options: { signal: AbortSignal; timeoutMs: number; maxBytes?: number; fetch?: FetchLike },
): Promise<VisitorResponse> {
  const { signal, timeoutMs, maxBytes = MAX_HTTP_RESPONSE_BYTES } = options
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), timeoutMs)
  const onAbort = () => controller.abort()
  signal.addEventListener('abort', onAbort, { once: true })
  const method = request.method.toUpperCase()
  const headers = new Headers()
  let body: string | undefined
  try {
    for (const [name, value] of Object.entries(request.headers)) headers.set(name, value)
    if (!BODILESS.has(method) && request.body !== undefined && request.body !== null) {
      body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body)
      if (typeof request.body !== 'string' && !headers.has('Content-Type')) headers.set('Content-Type', 'application/json')
    }
    const response = await (options.fetch ?? globalThis.fetch)(request.url, {
      method,
      headers,
      body,
      signal: controller.signal,
      credentials: 'omit',
      cache: 'no-store',
    })
    const text = await readCapped(response, maxBytes)
    if (text === undefined) {
      return failed(`The answer was larger than ${maxBytes} bytes`)
    }
    return { statusCode: response.status, data: parsed(text) }
  } catch (error) {
    if (signal.aborted) throw new TransportError('aborted', 'Request cancelled', { cause: error })
    if (controller.signal.aborted) return failed(`No answer within ${timeoutMs / 1000} s`)
    // fetch says no more (by design) for a network failure, a CORS refusal or a forbidden header.
    return failed(`The request failed (network, CORS or an invalid request): ${String(error)}`)
  } finally {
    clearTimeout(timer)
    signal.removeEventListener('abort', onAbort)
  }
}

const failed = (reason: string): VisitorResponse => ({ statusCode: 500, data: reason, failure: reason })

function parsed(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** The body as text, or undefined once it passes `maxBytes` (reading stops there). */
async function readCapped(response: Response, maxBytes: number): Promise<string | undefined> {
  const declared = Number(response.headers.get('Content-Length'))
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => {})
    return undefined
  }
  if (!response.body) return new TextDecoder().decode(await response.arrayBuffer())
  const reader = response.body.getReader()
  const parts: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > maxBytes) {
      await reader.cancel().catch(() => {})
      return undefined
    }
    parts.push(value)
  }
  const all = new Uint8Array(size)
  let at = 0
  for (const part of parts) {
    all.set(part, at)
    at += part.byteLength
  }
  return new TextDecoder().decode(all)
}
