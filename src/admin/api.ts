import { ApiError, apiClient } from '../protocol/api-client'
import { signOut, token } from './session'

export const REVOKED_MESSAGE = 'The service no longer accepts this token (revoked or unknown). Sign in again with a valid secret token.'

/** Same origin, the token in a header only: no cookie goes, no answer is cached. */
const INIT: RequestInit = { credentials: 'omit', cache: 'no-store' }

/**
 * This service's API with the signed-in secret token, through the contract's client and calls
 * (protocol/management-api.ts) as the command line makes them. A 401 means the token stopped
 * working (revoked while the console was open): the owner is signed out and told why.
 */
export const api = apiClient({
  baseUrl: '',
  token: () => token.value,
  init: INIT,
  onError(error, bearer) {
    if (error.status === 401 && bearer === token.value) signOut(REVOKED_MESSAGE)
    return undefined
  },
})

/** The API with a token the owner has not signed in with yet (the sign-in form checks it first). */
export const apiWith = (candidate: string) => apiClient({ baseUrl: '', token: () => candidate, init: INIT })

/** What to tell the owner about a failed call: the API's words and, for a refused body, what it names. */
export function messageOf(caught: unknown): string {
  if (!(caught instanceof ApiError)) return String(caught)
  if (caught.code === 'network') return 'The service could not be reached. Check your connection and try again.'
  const details = Array.isArray(caught.details) ? (caught.details as Array<{ path?: unknown; message?: unknown }>) : []
  const parts = details
    .map((detail) => [detail.path, detail.message].filter((part) => typeof part === 'string' && part).join(': '))
    .filter(Boolean)
  return parts.length ? `${caught.message} (${parts.slice(0, 5).join('; ')})` : caught.message
}

export { ApiError }
