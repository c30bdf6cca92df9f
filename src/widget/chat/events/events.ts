/**
 * Everything the widget tells the host page, as typed details of DOM events (`flowchat:*`). Codes
 * are stable identifiers a page can branch on (docs/site-owners/troubleshooting.md lists them);
 * messages are for people.
 */
export type DiagnosticCode =
  | 'missing-flow'
  | 'network-error'
  | 'timeout'
  | 'service-error'
  | 'invalid-response'
  | 'session-expired'
  | 'not-set-up'
  | 'flow-not-found'
  | 'flow-not-published'
  | 'answer-rejected'
  | 'stream-failed'
  | 'stream-interrupted'
  | 'service-log'
  | 'script-not-supported'
  | 'script-failed'
  | 'script-timeout'
  | 'script-too-large'
  | 'script-unavailable'
  | 'sandbox-blocked-by-csp'
  | 'sandbox-unavailable'
  | 'sandbox-message-rejected'
  | 'sandbox-restarted'
  | 'host-event-handler-failed'
  | 'action-failed'
  | 'unknown-action'
  | 'unknown-message'
  | 'unknown-input'
  | 'unsafe-url'
  | 'invalid-variables'
  | 'invalid-theme-value'
  | 'font-load-failed'
  | 'content-load-failed'
  | 'chunk-load-failed'
  | 'theme-refresh-failed'
  | 'storage-unavailable'
  | 'saved-conversation-invalid'
  | 'command-rejected'
  | 'http-request-failed'
  | 'webhook-wait-interrupted'
  | 'handoff-interrupted'
  | 'handoff-message-not-sent'
  | 'unknown-string'
  | 'waiting-for-network'
  | 'answered-in-another-tab'

export interface FlowChatErrorDetail {
  code: DiagnosticCode
  message: string
  /** HTTP status, when the service answered. */
  status?: number
  /** The service's own error code (`session_expired`, `flow_not_found`, …). */
  serviceCode?: string
  /** Whether trying again may help (the widget offers a retry control when it does). */
  retryable: boolean
  details?: unknown
}

export interface FlowChatLogDetail {
  /** `info`, `warning`, `error` or `success` (the service may send other values). */
  status: string
  description: string
  details?: unknown
  /** `service`: a `logs` entry of a chat step; `widget`: something the widget noticed. */
  source: 'service' | 'widget'
  code: DiagnosticCode
}

export interface FlowChatScriptEventDetail {
  name: string
  payload: unknown
}

/**
 * One message of a conversation's transcript (`flowchat:end`, the chat menu's downloads), in the
 * order shown. `from`: `flow` (the flow's message), `visitor` (an answer, or a message to a person),
 * `person` (a person of the site's team, in a handoff; `name` theirs), `service` (the service's
 * own line in a handoff: "Ada joined"). `text`: what a person reads (a picture's or video's
 * description, if any; `url` its address). `at`: when it was shown (ISO 8601); none for messages
 * restored from a conversation remembered before times were kept.
 */
export interface TranscriptLine {
  from: 'flow' | 'visitor' | 'person' | 'service'
  name?: string
  text: string
  url?: string
  at?: string
}

export interface FlowChatEventMap {
  /** The published flow arrived; the themed shell is painted. */
  'flowchat:ready': { flowId: string; publishedFlowId: string; updatedAt: string }
  /**
   * A conversation began (`resumed: false`) or a remembered one was restored after a reload
   * (`resumed: true`). `restartedBecause` says why the conversation before it was replaced
   * (`requested`: the visitor chose Start over in the chat's menu).
   */
  'flowchat:start': { sessionId: string; resultId: string; resumed: boolean; restartedBecause?: 'republished' | 'expired' | 'requested' }
  /** An answer (typed, chosen or produced by a client action) reached the service. */
  'flowchat:answer': { message: string }
  /**
   * The flow reached its end: no further input is expected. `transcript`: every message of the
   * conversation in order (left out, with a log, only if its code could not be loaded).
   */
  'flowchat:end': { transcript?: TranscriptLine[] }
  /**
   * An AI answer started streaming in: the service accepted the request. `attempt` counts the
   * visitor's retries of this answer (0 for the first).
   */
  'flowchat:stream-start': { attempt: number }
  /** The streamed answer is complete (and recorded by the service); `text` is all of it. */
  'flowchat:stream-end': { attempt: number; text: string }
  'flowchat:error': FlowChatErrorDetail
  'flowchat:log': FlowChatLogDetail
  /** A flow script called `emitHostEvent(name, payload)`; the payload is plain JSON data. */
  'flowchat:script-event': FlowChatScriptEventDetail
}

export type FlowChatEventType = keyof FlowChatEventMap

export type Emit = <K extends FlowChatEventType>(type: K, detail: FlowChatEventMap[K]) => void

/**
 * Mistakes in how the page embeds the chat (no flow named; its token or origin refused; no such
 * flow for the token; a flow not published): the site owner's to fix, said in the console in every
 * build; the visitor is told the chat is not set up, with nothing to try.
 */
const SET_UP_CODES: ReadonlySet<DiagnosticCode> = new Set(['missing-flow', 'not-set-up', 'flow-not-found', 'flow-not-published'])
export const isSetUpMistake = (code: DiagnosticCode): boolean => SET_UP_CODES.has(code)

/** A warning from the widget itself, as a log event. */
export const widgetWarning = (code: DiagnosticCode, description: string, details?: unknown): FlowChatLogDetail => ({
  status: 'warning',
  description,
  details,
  source: 'widget',
  code,
})

/** The log of a lazy chunk that could not load (`name` says what it holds): an error, the chat goes on without it. */
export const chunkFailure = (name: string, error: unknown, code: DiagnosticCode = 'chunk-load-failed'): FlowChatLogDetail => ({
  ...widgetWarning(code, `The ${name} could not be loaded`, { error: String(error) }),
  status: 'error',
})
