import type { PublishedFlow } from '../../../protocol/index'

/**
 * The engine's ports: what a step may call outside the engine, in the engine's own words. The
 * service's integrations implement them (ai/ai-client.ts, outbound/outbound-http.ts,
 * mail/mailer.ts, chat/linked-flows-loader.ts) and the chat service hands them to a step in its
 * context (step-context.ts, built in chat/chat-step.ts); the engine imports none of those. The
 * integrations import these types only, never a value of the engine.
 *
 * A call fails in one of two ways: with a failure the flow is told about (its block logs or maps
 * it and the walk goes on), an `Error` whose `failure` is one of the port's kinds; or with
 * anything else, a fault that ends the step.
 */

/** A failure the flow is told about: an error naming its kind. */
export interface CallFailure<Kind extends string> extends Error {
  readonly failure: Kind
}

/** The failure `error` is, when it names one of `kinds`; undefined for a fault. */
export function callFailure<Kind extends string>(error: unknown, kinds: readonly Kind[]): CallFailure<Kind> | undefined {
  const failure = error instanceof Error ? (error as Partial<CallFailure<string>>).failure : undefined
  return typeof failure === 'string' && (kinds as readonly string[]).includes(failure) ? (error as CallFailure<Kind>) : undefined
}

// Linked flows

/** A published flow another one links to, loaded for the engine by the service. */
export interface LinkedFlow {
  flowId: string
  versionId: string
  flow: PublishedFlow
}

/**
 * Published flows of the session's workspace, and of it only: the engine never reads storage
 * itself, so whoever runs it decides what a `Typebot link` can reach.
 */
export interface LinkedFlowLoader {
  /** The live published version of a flow, by id or public id. */
  current(ref: string): Promise<LinkedFlow | undefined>
  /** A version loaded earlier by `current`: a session keeps running the version it entered. */
  version(versionId: string): Promise<PublishedFlow | undefined>
}

/** An answer the result held before this step (the default body of HTTP requests and e-mails). */
export interface SnapshotAnswer {
  blockId: string
  groupId: string
  variableId?: string
  /** The answer as stored (after formatting). */
  value: string
  /** What the visitor's bubble showed, when it is not `value` (a choice's label where `value` is the item's value). */
  display?: string
}

// Outgoing HTTP

export interface HttpCallRequest {
  url: string
  method?: string
  headers?: Record<string, string>
  body?: string
  timeoutMs: number
  maxResponseBytes: number
}

/** Why a call brought no answer back. */
export const HTTP_CALL_FAILURES = [
  'refused',
  'timeout',
  'too-large',
  'network',
  'invalid-url',
  'invalid-request',
  'too-many-redirects',
  /** The step or the workspace already made as many calls as it may. */
  'limit',
] as const
export type HttpCallFailure = (typeof HTTP_CALL_FAILURES)[number]

/** One call with its body read in full, within the deadline and the size cap; fails with an `HttpCallFailure`. */
export interface HttpCaller {
  request(request: HttpCallRequest): Promise<{ status: number; body: Buffer }>
}

// Mail

export interface OutgoingEmail {
  to: string[]
  cc: string[]
  bcc: string[]
  replyTo?: string
  /** The display name the block's author wrote for the Reply-To (never one a visitor filled in). */
  senderName?: string
  subject: string
  text?: string
  html?: string
}

export type MailOutcome = { via: 'smtp'; server: string; from: string; messageId: string } | { via: 'outbox'; id: string; from: string }

export type MailSender = (request: { credentialsId?: string; email: OutgoingEmail }) => Promise<MailOutcome>

// AI providers

/**
 * What an AI block asks an OpenAI-compatible provider for, and what comes back: plain data, so
 * a streamed block's request waits in the session state until the widget asks for the stream.
 */
export type AiProvider = 'openai' | 'mistral'

export interface ChatCompletionMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

export interface ChatCompletionRequest {
  provider: AiProvider
  /** Workspace credentials; absent: the service-wide key of the provider (OPENAI_API_KEY, …). */
  credentialsId?: string
  /** The block's deprecated `baseUrl` option: called with no key unless it is the key's own address. */
  baseUrl?: string
  model: string
  messages: ChatCompletionMessage[]
  temperature?: number
}

export interface CompletionUsage {
  promptTokens: number
  completionTokens: number
  totalTokens: number
}

export interface ChatCompletion {
  text: string
  usage?: CompletionUsage
}

/** Why a call did not produce an answer. */
export const AI_FAILURES = ['credentials', 'refused', 'status', 'timeout', 'network', 'answer'] as const
export type AiFailure = (typeof AI_FAILURES)[number]

/** An AI call's failure: what the flow is told, and what the provider said (kept with the result only). */
export interface AiCallFailure extends CallFailure<AiFailure> {
  /** The provider's HTTP status, for `status`. */
  readonly status?: number
  /** What the provider said (may name the account). */
  readonly providerMessage?: string
}

/** The provider calls a step may make for its workspace; both fail with an `AiCallFailure`. */
export interface AiCaller {
  /** Fails ('credentials') when the request cannot be sent from this workspace. */
  check(request: ChatCompletionRequest): Promise<void>
  /** One completion, not streamed, within `timeoutMs` (and the configured AI timeouts). */
  complete(request: ChatCompletionRequest, options: { timeoutMs: number }): Promise<ChatCompletion>
}
