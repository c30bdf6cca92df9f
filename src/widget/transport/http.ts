import type { z } from 'zod/mini'
import { errorBodySchema } from '../../protocol/errors'
import { readableIssues } from '../../protocol/issues'
import { TransportError } from './errors'

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>

export interface RequestOptions {
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  /** Serialised as JSON; sets `Content-Type`. */
  body?: unknown
  /** Cancels the request (the caller went away); reported as `aborted`. */
  signal?: AbortSignal
  timeoutMs: number
  fetch: FetchLike
}

/**
 * One HTTP exchange with the flow service: timeout, error body, JSON and schema parsing all end in
 * either the parsed value or a `TransportError`, never in a raw exception or an unchecked value.
 */
export async function requestJson<S extends z.ZodMiniType>(url: string, schema: S, options: RequestOptions): Promise<z.output<S>> {
  const { signal } = options
  if (signal?.aborted) throw new TransportError('aborted', 'Request cancelled')
  const controller = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort()
  }, options.timeoutMs)
  const onAbort = () => controller.abort()
  signal?.addEventListener('abort', onAbort, { once: true })

  const failure = (cause: unknown) => {
    if (signal?.aborted) return new TransportError('aborted', 'Request cancelled', { cause })
    if (timedOut) return new TransportError('timeout', 'The flow service took too long to answer', { cause })
    return new TransportError('network', 'Could not reach the flow service', { cause })
  }

  try {
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers }
    let body: string | undefined
    if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json'
      body = JSON.stringify(options.body)
    }
    let response: Response
    let text: string
    try {
      response = await options.fetch(url, {
        method: options.method ?? 'GET',
        headers,
        body,
        signal: controller.signal,
        // The service authenticates with tokens and session ids, never cookies.
        credentials: 'omit',
      })
      text = await response.text()
    } catch (cause) {
      throw failure(cause)
    }
    return readAnswer(schema, response.status, text, response.headers.get('Retry-After'))
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', onAbort)
  }
}

/** `text` as JSON, or undefined when it is none. */
export function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * What the flow service answered (`status`, the body's `text`), read with `schema`: the parsed
 * value, or a `TransportError` (`http` with the error body's code and words, or `invalid-response`).
 * Every request the widget makes ends here, whichever API sent it (fetch, or XMLHttpRequest for an
 * upload's progress).
 */
export function readAnswer<S extends z.ZodMiniType>(schema: S, status: number, text: string, retryAfter: string | null): z.output<S> {
  const json = jsonOf(text)
  if (status < 200 || status > 299) throw httpError(status, json, retryAfter)
  const parsed = schema.safeParse(json)
  if (!parsed.success) {
    throw new TransportError('invalid-response', 'The flow service sent a response this widget cannot read', {
      status,
      details: json === undefined ? 'not JSON' : readableIssues(parsed.error),
    })
  }
  return parsed.data
}

/** A refusal (`status`, with its error body as JSON) as a TransportError with the service's code and words. */
export function httpError(status: number, json: unknown, retryAfter: string | null): TransportError {
  const retryAfterMs = parseRetryAfter(retryAfter)
  const body = errorBodySchema.safeParse(json)
  if (body.success) {
    const { code, message, details } = body.data.error
    return new TransportError('http', message, { status, code, details, retryAfterMs })
  }
  return new TransportError('http', `The flow service answered with status ${status}`, { status, retryAfterMs })
}

/** `Retry-After` is either delay-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  const date = Date.parse(trimmed)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}
