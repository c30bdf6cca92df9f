import { ENGLISH } from '../i18n/strings'
import { isTransportError, type TransportError } from '../transport/index'
import type { DiagnosticCode, Emit, FlowChatErrorDetail } from './events'

const SESSION_GONE = new Set(['session_not_found', 'session_expired'])

/** The service no longer knows the session: only a new conversation can continue. */
export const isSessionGone = (error: unknown): boolean =>
  isTransportError(error) && error.kind === 'http' && SESSION_GONE.has(error.code ?? '')

/** The work was cancelled (`signal`: a restart, a removal; or the request's own abort): nothing to show. */
export const isAborted = (error: unknown, signal: AbortSignal): boolean =>
  signal.aborted || (isTransportError(error) && error.kind === 'aborted')

/** A refusal of this particular request (bad answer, too long, …): retrying it cannot help. */
export const isRejection = (error: unknown): boolean =>
  isTransportError(error) && error.kind === 'http' && !error.retryable && !isSessionGone(error)

/** In English for the page (the chat shows them in its own language: ui/i18n localize). */
const TEXT: Partial<Record<DiagnosticCode, string>> = {
  'network-error': ENGLISH.failNetwork,
  timeout: ENGLISH.failTimeout,
  'invalid-response': ENGLISH.failInvalid,
  'session-expired': ENGLISH.failExpired,
  'service-error': ENGLISH.failService,
  'not-set-up': ENGLISH.failNotSetUp,
}

function codeOf(error: TransportError): DiagnosticCode {
  if (error.kind === 'network') return 'network-error'
  if (error.kind === 'timeout') return 'timeout'
  if (error.kind === 'invalid-response') return 'invalid-response'
  // The service refuses this page's token or origin: the site owner's set-up, not the visitor's to fix.
  if (error.status === 401 || error.status === 403) return 'not-set-up'
  return isSessionGone(error) ? 'session-expired' : 'service-error'
}

/**
 * Plain words for the visitor plus a typed event detail for the page. A 4xx message from the
 * service is shown (it explains what was refused); 5xx text may be internal, so it is replaced.
 */
export function describeFailure(error: unknown): FlowChatErrorDetail {
  if (!isTransportError(error)) {
    return { code: 'service-error', message: ENGLISH.failUnknown, retryable: true, details: String(error) }
  }
  const code = codeOf(error)
  return {
    code,
    // A refusal (a 4xx other than a busy service's) says what was refused: shown as the service words it.
    message: code === 'service-error' && !error.retryable ? error.message : (TEXT[code] ?? error.message),
    status: error.status,
    serviceCode: error.code,
    retryable: error.retryable,
    // The service's own words (which token, which origin) are for the owner, not on screen.
    details: code === 'not-set-up' ? error.message : error.details,
  }
}

/** What a `sendCommand` promise rejects with: an Error carrying the `flowchat:error` detail the page also got. */
export type CommandError = Error & FlowChatErrorDetail

export const commandError = (detail: FlowChatErrorDetail): CommandError => Object.assign(new Error(detail.message), detail)

/** A command that was not sent (`why`), reported to the page; the promise to reject it with. */
export function refuseCommand(emit: Emit, name: unknown, why: string): Promise<never> {
  const detail: FlowChatErrorDetail = {
    code: 'command-rejected',
    message: `The command "${String(name)}" was not sent: ${why}.`,
    retryable: false,
  }
  emit('flowchat:error', detail)
  return Promise.reject(commandError(detail))
}
