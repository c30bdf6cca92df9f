import { signOut, token } from './session'

/** An error the API answered with (its code, words and details), or a failed request. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Array<{ path?: string; message?: string }> = [],
  ) {
    super(message)
  }

  /** The message and, for a refused body, what it names: shown to the owner as is. */
  describe(): string {
    const parts = this.details.map((detail) => [detail.path, detail.message].filter(Boolean).join(': ')).filter(Boolean)
    return parts.length ? `${this.message} (${parts.slice(0, 5).join('; ')})` : this.message
  }
}

export const REVOKED_MESSAGE = 'The service no longer accepts this token (revoked or unknown). Sign in again with a valid secret token.'

/**
 * A call to this service's API with the signed-in secret token. A 401 means the token stopped
 * working (revoked while the console was open): the owner is signed out and told why.
 */
export async function request(path: string, init: RequestInit = {}, bearer = token.value): Promise<Response> {
  const headers = new Headers(init.headers)
  if (bearer) headers.set('Authorization', `Bearer ${bearer}`)
  if (init.body !== undefined) headers.set('Content-Type', 'application/json')
  let response: Response
  try {
    response = await fetch(path, { ...init, headers, credentials: 'omit', cache: 'no-store' })
  } catch {
    throw new ApiError(0, 'network', 'The service could not be reached. Check your connection and try again.')
  }
  if (response.ok) return response
  const body = (await response.json().catch(() => null)) as {
    error?: { code?: string; message?: string; details?: ApiError['details'] }
  } | null
  const error = new ApiError(
    response.status,
    body?.error?.code ?? 'error',
    body?.error?.message ?? `The service answered ${response.status}.`,
    body?.error?.details,
  )
  if (response.status === 401 && bearer === token.value) signOut(REVOKED_MESSAGE)
  throw error
}

export async function api<T>(path: string, method = 'GET', body?: unknown): Promise<T> {
  const response = await request(path, { method, body: body === undefined ? undefined : JSON.stringify(body) })
  return (await response.json()) as T
}

/** What to tell the owner about a failed call: the API's words, or the error's. */
export const messageOf = (caught: unknown) => (caught instanceof ApiError ? caught.describe() : String(caught))
