import type { z } from 'zod/mini'
import { errorBodySchema } from './errors'

/**
 * A client of the service's secret-token API, shared by every program that manages a workspace
 * (the console in the browser, the command line in Node): one way to send a call with the
 * bearer token, read the contract's error body, and parse an answer with the contract's schema.
 * The calls themselves, path by path, are in management-api.ts.
 */

/** An answer other than 2xx (its status, the contract's error code, words and details), or no answer at all (status 0). */
export class ApiError extends Error {
  override readonly name = 'ApiError'
  constructor(
    readonly status: number,
    /** One of the contract's `ERROR_CODES`; `network` when the service could not be reached, `unexpected` when its answer is not the contract's. */
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message)
  }
}

export interface ApiClientOptions {
  /** The service's address (`https://chat.example.com`); empty for the page's own origin. */
  baseUrl: string
  /** The secret token, read at each call (a console signs in and out while it runs). */
  token: () => string | null | undefined
  fetch?: (url: string, init: RequestInit) => Promise<Response>
  /** What every request adds (a browser's `credentials: 'omit'`, `cache: 'no-store'`). */
  init?: RequestInit
  /**
   * Sees each refusal before it is thrown, with the token the call was sent with: may act on it
   * (a console signs out on a 401) or answer the error to throw instead (a program's own kind).
   */
  onError?: (error: ApiError, bearer: string | null | undefined) => Error | undefined
}

export interface ApiClient {
  readonly baseUrl: string
  /**
   * One call: the response when it is 2xx, else an `ApiError` with what the service said. `init`
   * adds to this call only (its headers beside the client's, an `AbortSignal`).
   */
  send(method: string, path: string, body?: unknown, init?: RequestInit): Promise<Response>
  /** One call whose answer is parsed with `schema`: an answer the schema refuses is an `unexpected` error, not data. */
  read<S extends z.ZodMiniType>(schema: S, method: string, path: string, body?: unknown, init?: RequestInit): Promise<z.output<S>>
}

export function apiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const send = async (method: string, path: string, body?: unknown, init?: RequestInit) => {
    const bearer = options.token()
    const fail = (error: ApiError) => options.onError?.(error, bearer) ?? error
    const headers = new Headers(options.init?.headers)
    for (const [name, value] of new Headers(init?.headers)) headers.set(name, value)
    if (bearer) headers.set('Authorization', `Bearer ${bearer}`)
    if (body !== undefined) headers.set('Content-Type', 'application/json')
    let response: Response
    try {
      response = await (options.fetch ?? fetch)(`${baseUrl}${path}`, {
        ...options.init,
        ...init,
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    } catch (error) {
      const cause = (error as Error).cause ?? (error as Error).message
      throw fail(new ApiError(0, 'network', `The service${baseUrl ? ` at ${baseUrl}` : ''} could not be reached (${String(cause)}).`))
    }
    if (!response.ok) throw fail(await errorOf(response))
    return { response, fail }
  }
  return {
    baseUrl,
    send: async (method, path, body, init) => (await send(method, path, body, init)).response,
    async read(schema, method, path, body, init) {
      const { response, fail } = await send(method, path, body, init)
      const parsed = schema.safeParse(await response.json().catch(() => undefined))
      if (parsed.success) return parsed.data
      throw fail(
        new ApiError(
          response.status,
          'unexpected',
          `The service's answer to ${method} ${path.split('?')[0]} is not what the API describes.`,
        ),
      )
    },
  }
}

/** The contract's error body of a refused call; any other body is `unexpected`, quoted briefly. */
async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '')
  const parsed = errorBodySchema.safeParse(safeJson(text))
  if (parsed.success) {
    const { code, message, details } = parsed.data.error
    return new ApiError(response.status, code, message, details ?? undefined)
  }
  return new ApiError(response.status, 'unexpected', `The service answered ${response.status}${text ? `: ${text.slice(0, 200)}` : '.'}`)
}

/** A JSON text's value, or undefined when it is not JSON (an answer to check next). */
export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
