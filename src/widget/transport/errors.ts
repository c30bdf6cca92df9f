/**
 * Why a request to the flow service failed. One class with a `kind` discriminant keeps the bundle
 * small and lets callers branch without `instanceof` chains.
 * - `network`: the service could not be reached (offline, DNS, CORS, connection reset).
 * - `timeout`: no complete response within the time limit.
 * - `http`: the service answered with a non-2xx status (`status`, and `code` from the error body).
 * - `invalid-response`: a 2xx body that is not JSON or does not match the contract schema.
 * - `aborted`: the caller cancelled (element removed, flow changed); never shown to the user.
 */
export type TransportErrorKind = 'network' | 'timeout' | 'http' | 'invalid-response' | 'aborted'

export interface TransportErrorInit {
  status?: number
  /** The service's error code (`session_expired`, …) when the body carried one. */
  code?: string
  details?: unknown
  /** Milliseconds the service asked us to wait (`Retry-After`). */
  retryAfterMs?: number
  cause?: unknown
}

export class TransportError extends Error {
  // Declared, not initialised: the constructor sets them from its arguments in one go.
  declare readonly kind: TransportErrorKind
  declare readonly status: number | undefined
  declare readonly code: string | undefined
  declare readonly details: unknown
  declare readonly retryAfterMs: number | undefined

  constructor(kind: TransportErrorKind, message: string, { cause, ...init }: TransportErrorInit = {}) {
    super(message, cause === undefined ? undefined : { cause })
    Object.assign(this, init, { name: 'TransportError', kind })
  }

  /** Worth trying again with the same request: the failure may be temporary. */
  get retryable(): boolean {
    if (this.kind === 'network' || this.kind === 'timeout') return true
    if (this.kind !== 'http' || this.status === undefined) return false
    return this.status >= 500 || this.status === 429 || this.status === 408
  }
}

export const isTransportError = (value: unknown): value is TransportError => value instanceof TransportError

/**
 * The service refused how the page is set up: its token or origin (401, 403), or its flow (no such
 * flow for the token, or not published). The site owner's to fix; asking again cannot help.
 */
export const isSetUpRefusal = (error: unknown): error is TransportError =>
  isTransportError(error) &&
  error.kind === 'http' &&
  (error.status === 401 || error.status === 403 || error.code === 'flow_not_found' || error.code === 'not_published')
