import { ENGLISH, type StringId, type Words } from '../../i18n/strings'
import { isSetUpRefusal, isTransportError, type TransportError } from '../../transport/index'
import { type DiagnosticCode, type Emit, type FlowChatErrorDetail, isSetUpMistake } from './events'

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

/**
 * One failure as the widget tells it: to the page (`detail`, in English, with its stable code)
 * and to the visitor (`words`, shown in the chat's language when they are one of its strings).
 */
export interface Told {
  detail: FlowChatErrorDetail
  words: Words
}

/** A failure the visitor reads as the widget's string `id` (the page's message is its English). */
export function told(id: StringId, detail: Omit<FlowChatErrorDetail, 'message'>): Told {
  const text = ENGLISH[id] as string
  return { detail: { ...detail, message: text }, words: { text, id } }
}

/** The visitor's words for each failure code that has them. */
const WORDS: Partial<Record<DiagnosticCode, StringId>> = {
  'network-error': 'failNetwork',
  timeout: 'failTimeout',
  'invalid-response': 'failInvalid',
  'session-expired': 'failExpired',
  'service-error': 'failService',
}

/**
 * What the site owner does about a set-up refusal, by the service's code or status (its own words
 * say what is wrong); docs/site-owners/troubleshooting.md says more under each diagnostic code.
 */
const FIXES: Record<string, string> = {
  401: "Check the chat's token: a publishable token (fs_pk_…) of the flow's workspace.",
  403: "Add this page's origin to the flow's allowed origins, and publish it again.",
  flow_not_found: "Check the chat's flow: the id or public id of a flow of the token's workspace.",
  not_published: 'Publish the flow.',
}

/** A set-up mistake: the owner reads what is wrong and what to do (`message`), the visitor only that the chat is not set up. */
const setUpMistake = (message: string, detail: Omit<FlowChatErrorDetail, 'message'>): Told => ({
  detail: { ...detail, message: `This chat is not set up: ${message}` },
  words: { text: ENGLISH.failNotSetUp, id: 'failNotSetUp' },
})

/** The chat names no flow. */
export const noFlowNamed = (): Told =>
  setUpMistake("it names no flow. Set the chat's flow to the id or public id of a published flow.", {
    code: 'missing-flow',
    retryable: false,
  })

function codeOf(error: TransportError): DiagnosticCode {
  if (error.kind === 'network') return 'network-error'
  if (error.kind === 'timeout') return 'timeout'
  if (error.kind === 'invalid-response') return 'invalid-response'
  // The service refuses the page's set-up: the site owner's to fix, not the visitor's.
  if (isSetUpRefusal(error)) {
    return error.code === 'not_published' ? 'flow-not-published' : error.status === 404 ? 'flow-not-found' : 'not-set-up'
  }
  return isSessionGone(error) ? 'session-expired' : 'service-error'
}

/**
 * Plain words for the visitor plus a typed event detail for the page. A 4xx message from the
 * service is shown (it explains what was refused); 5xx text may be internal, so it is replaced. A
 * set-up mistake tells the owner what to fix, and the visitor only that the chat is not set up.
 */
export function describeFailure(error: unknown): Told {
  if (!isTransportError(error)) return told('failUnknown', { code: 'service-error', retryable: true, details: String(error) })
  const code = codeOf(error)
  const detail = { code, status: error.status, serviceCode: error.code, retryable: error.retryable, details: error.details }
  // The service's own words (which token, which origin, which flow) are for the owner, not on screen.
  if (isSetUpMistake(code)) {
    return setUpMistake(`${error.message} ${FIXES[error.code!] ?? FIXES[error.status!] ?? ''}`.trim(), {
      ...detail,
      details: error.message,
    })
  }
  // A refusal (a 4xx other than a busy service's) says what was refused: shown as the service words it.
  if (code === 'service-error' && !error.retryable) return { detail: { ...detail, message: error.message }, words: { text: error.message } }
  return told(WORDS[code]!, detail)
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
