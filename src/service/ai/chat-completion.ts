/**
 * What an AI block asks an OpenAI-compatible provider for, and what comes back: plain data, so
 * a streamed block's request waits in the session state until the widget asks for the stream.
 */

export const AI_PROVIDERS = ['openai', 'mistral'] as const
export type AiProvider = (typeof AI_PROVIDERS)[number]

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
export type AiFailure = 'credentials' | 'refused' | 'status' | 'timeout' | 'network' | 'answer'

export class AiCallError extends Error {
  constructor(
    readonly failure: AiFailure,
    message: string,
    /** The provider's HTTP status, for `status`. */
    readonly status?: number,
    /** What the provider said (may name the account): kept with the result only. */
    readonly providerMessage?: string,
  ) {
    super(message)
    this.name = 'AiCallError'
  }
}

/** The provider calls a step may make for its workspace (see src/service/ai). */
export interface AiCaller {
  /** Throws `AiCallError` ('credentials') when the request cannot be sent from this workspace. */
  check(request: ChatCompletionRequest): Promise<void>
  /** One completion, not streamed, within `timeoutMs` (and the configured AI timeouts). */
  complete(request: ChatCompletionRequest, options: { timeoutMs: number }): Promise<ChatCompletion>
}
