import type { CallFailure, HttpCallFailure } from '../engine/core/ports'

/**
 * Why an outgoing call failed, in words a flow may see: its HTTP block maps the message into a
 * variable, so it names the host the flow gave and what went wrong, never an address a name
 * resolved to (a tenant could otherwise map the operator's network) nor a raw system message.
 */

/** The kinds are the engine's HTTP port's (engine/core/ports.ts): a step's call fails with one of them. */
export type OutboundFailure = HttpCallFailure

export class OutboundError extends Error implements CallFailure<OutboundFailure> {
  constructor(
    readonly failure: OutboundFailure,
    message: string,
  ) {
    super(message)
    this.name = 'OutboundError'
  }
}

export function refused(host: string, why: string): OutboundError {
  return new OutboundError('refused', `Refused to connect to ${host}: ${why}`)
}

/**
 * A name the service will not call, whether it resolves to a refused address or to none at all:
 * told alike, failing alike, so no flow can learn which internal names exist by calling them. The
 * operator's log says which (outbound-http.ts).
 */
export const noCallableAddress = (host: string): OutboundError => refused(host, 'it has no address this service may call')

/** Lookup failures that are answers (the name, or its address, does not exist), not faults. */
const NO_ADDRESS = new Set(['ENOTFOUND', 'ENODATA'])

export function timedOut(timeoutMs: number): OutboundError {
  return new OutboundError('timeout', `No complete answer within ${Math.round(timeoutMs / 100) / 10} s`)
}

/** A resolver's error code in words (node:dns codes). */
const LOOKUP_FAILURES: Record<string, string> = {
  ETIMEOUT: 'no answer from the name servers in time',
  ESERVFAIL: 'the name servers failed to answer',
  EREFUSED: 'the name servers refused the query',
  ECONNREFUSED: 'the name servers cannot be reached',
}

export function lookupFailed(host: string, error: unknown): OutboundError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (code && NO_ADDRESS.has(code)) return noCallableAddress(host)
  const why = (code && LOOKUP_FAILURES[code]) ?? 'the name could not be resolved'
  return new OutboundError('network', `Could not resolve ${host}: ${why}${code ? ` (${code})` : ''}`)
}

/** What a connection error code means, said of the host. */
const CONNECTION_FAILURES: Record<string, string> = {
  ECONNREFUSED: 'refused the connection',
  ECONNRESET: 'closed the connection',
  EPIPE: 'closed the connection',
  UND_ERR_SOCKET: 'closed the connection',
  UND_ERR_CLOSED: 'closed the connection',
  ETIMEDOUT: 'did not accept the connection in time',
  UND_ERR_CONNECT_TIMEOUT: 'did not accept the connection in time',
  UND_ERR_HEADERS_TIMEOUT: 'sent no answer in time',
  UND_ERR_BODY_TIMEOUT: 'stopped sending its answer',
  EHOSTUNREACH: 'cannot be reached',
  ENETUNREACH: 'cannot be reached',
  EHOSTDOWN: 'cannot be reached',
  UND_ERR_HEADERS_OVERFLOW: 'sent headers larger than this service reads',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'sent an answer shorter or longer than it announced',
}

const TLS_CODE = /^(?:ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/

/**
 * Finds our own error in undici's `fetch failed` chain, or names what happened from its code
 * alone: the system's own message carries the address connected to (`connect ECONNREFUSED
 * 10.0.0.5:80`), and that address is the operator's, not the flow's.
 */
export function describeFailure(error: unknown, host: string, timeout: { aborted: boolean; timeoutMs: number }): OutboundError {
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof OutboundError) return cause
  }
  const name = error instanceof Error ? error.name : ''
  if (timeout.aborted || name === 'TimeoutError') return timedOut(timeout.timeoutMs)
  const code = errorCode(error)
  if (code === undefined) return new OutboundError('network', `The call to ${host} failed`)
  if (code === 'UND_ERR_INVALID_ARG' || code === 'UND_ERR_NOT_SUPPORTED') return invalidHeaders()
  const phrase = CONNECTION_FAILURES[code] ?? (TLS_CODE.test(code) ? 'presented a TLS certificate that is not accepted' : undefined)
  return new OutboundError('network', phrase ? `${host} ${phrase} (${code})` : `The call to ${host} failed (${code})`)
}

function errorCode(error: unknown): string | undefined {
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    const code = (cause as NodeJS.ErrnoException).code
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,63}$/.test(code)) return code
  }
  return undefined
}

/** The HTTP client refused a header: named without its value, which may be a secret. */
export function invalidHeaders(): OutboundError {
  return new OutboundError('invalid-request', 'A header of the request cannot be sent (a character or a name no header may have)')
}
