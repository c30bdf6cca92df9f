import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai'
import type { ApiKeyCredentialData } from '../../protocol/credentials'
import { CredentialUnreadableError } from '../credentials/credentials-key'
import { CredentialNotFoundError, type CredentialsVault } from '../credentials/credentials-vault'
import type { AiCaller, ChatCompletion, ChatCompletionRequest, CompletionUsage } from '../engine/core/ports'
import { type OutboundCalls, OutboundError, type OutboundHttp } from '../outbound/outbound-http'
import { type AiConfig, type AiTimeouts, PROVIDER_BASE_URLS, PROVIDER_ENV } from './ai-config'
import { AiCallError } from './chat-completion'

/**
 * Chat completions from OpenAI-compatible providers, through the official `openai` package with
 * its `fetch` going through the outbound guard (address checks, deadline, size cap). Keys come
 * from the workspace's credentials a block names, else from the service's own configuration.
 */

/** Largest answer read from a provider: a long streamed answer is mostly event framing. */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024

export type AiStreamEvent = { type: 'text'; text: string } | { type: 'usage'; usage: CompletionUsage }

export class AiClient {
  constructor(private readonly options: { vault: CredentialsVault; outbound: OutboundHttp; config: AiConfig }) {}

  get timeouts(): AiTimeouts {
    return this.options.config.timeouts
  }

  /** What a step of this workspace calls (an AI block computed within the step). */
  forWorkspace(workspaceId: string): AiCaller {
    return {
      check: async (request) => void (await this.target(workspaceId, request)),
      complete: (request, { timeoutMs }) => this.complete(workspaceId, request, timeoutMs),
    }
  }

  async complete(workspaceId: string, request: ChatCompletionRequest, timeoutMs: number): Promise<ChatCompletion> {
    const target = await this.target(workspaceId, request)
    const ms = Math.max(1, Math.min(timeoutMs, this.timeouts.totalMs))
    try {
      const completion = await this.client(target, ms).chat.completions.create(
        { ...body(request), stream: false },
        { signal: AbortSignal.timeout(ms) },
      )
      const text = completion.choices[0]?.message?.content ?? ''
      const usage = usageOf(completion.usage)
      return usage ? { text, usage } : { text }
    } catch (error) {
      throw aiError(error, timeoutError(ms))
    }
  }

  /**
   * The answer as it streams, text parts then the usage. Ends with an `AiCallError` when the
   * provider refuses, fails, stalls (first token, between parts, in total) or `signal` aborts.
   */
  async *stream(workspaceId: string, request: ChatCompletionRequest, signal?: AbortSignal): AsyncGenerator<AiStreamEvent> {
    const target = await this.target(workspaceId, request)
    const { firstTokenMs, idleMs, totalMs } = this.timeouts
    const controller = new AbortController()
    let reason: AiCallError | undefined
    const abort = (error: AiCallError) => {
      reason ??= error
      controller.abort(error)
    }
    const total = setTimeout(() => abort(timeoutError(totalMs, 'the whole answer')), totalMs)
    let idle = setTimeout(() => abort(timeoutError(firstTokenMs, 'its first words')), firstTokenMs)
    const stop = () => abort(new AiCallError('network', 'The stream was stopped'))
    signal?.addEventListener('abort', stop, { once: true })
    try {
      const stream = await this.client(target, totalMs).chat.completions.create(
        { ...body(request), stream: true, stream_options: { include_usage: true } },
        { signal: controller.signal },
      )
      let started = false
      for await (const chunk of stream) {
        const text = chunk.choices[0]?.delta?.content
        // Before the first words only text counts; after them any part shows the answer goes on.
        if (text || started) {
          started = true
          clearTimeout(idle)
          idle = setTimeout(() => abort(timeoutError(idleMs, 'its next words')), idleMs)
        }
        if (text) yield { type: 'text', text }
        const usage = usageOf(chunk.usage)
        if (usage) yield { type: 'usage', usage }
      }
      // An aborted stream just ends its iteration: a cut answer must not pass for a whole one.
      if (reason) throw reason
    } catch (error) {
      throw reason ?? aiError(error, timeoutError(totalMs, 'the whole answer'))
    } finally {
      clearTimeout(total)
      clearTimeout(idle)
      signal?.removeEventListener('abort', stop)
      // A reader that stopped early leaves no connection open.
      controller.abort()
    }
  }

  /**
   * Where the call goes and with which key. A key goes only to its own provider's address (the
   * credentials' `baseUrl`, the service's `*_BASE_URL`, else the provider's): a block's own
   * `baseUrl` elsewhere is called with no key at all, so no flow (nor a visitor filling a
   * variable) can send a key to a server of its choosing.
   */
  private async target(workspaceId: string, request: ChatCompletionRequest): Promise<AiTarget> {
    const { provider, credentialsId } = request
    const http = this.options.outbound.forWorkspace(workspaceId)
    let keyed: { apiKey: string; baseURL: string }
    if (credentialsId !== undefined && credentialsId !== 'default') {
      let data: ApiKeyCredentialData
      try {
        data = await this.options.vault.use(workspaceId, credentialsId, provider)
      } catch (error) {
        if (error instanceof CredentialNotFoundError || error instanceof CredentialUnreadableError) {
          throw new AiCallError('credentials', error.message)
        }
        throw error
      }
      keyed = { apiKey: data.apiKey, baseURL: data.baseUrl ?? PROVIDER_BASE_URLS[provider] }
    } else {
      const service = this.options.config.defaults[provider]
      if (!service) {
        // A server of the block's own that checks no key (a local model server) needs none.
        if (request.baseUrl !== undefined) return { baseURL: request.baseUrl, http }
        throw new AiCallError('credentials', `The block names no ${provider} credentials and ${PROVIDER_ENV[provider]} is not set`)
      }
      keyed = { apiKey: service.apiKey, baseURL: service.baseUrl ?? PROVIDER_BASE_URLS[provider] }
    }
    if (request.baseUrl !== undefined && !sameAddress(request.baseUrl, keyed.baseURL)) return { baseURL: request.baseUrl, http }
    return { ...keyed, http }
  }

  private client(target: AiTarget, timeoutMs: number): OpenAI {
    return new OpenAI({
      // The SDK wants a key; a keyless target's Authorization header is removed before sending.
      apiKey: target.apiKey ?? 'none',
      baseURL: target.baseURL,
      // A failed call is the widget's to retry (the visitor sees it); hidden retries would double the wait.
      maxRetries: 0,
      timeout: timeoutMs,
      fetch: ((url: string | URL, init?: RequestInit) => {
        const headers = new Headers(init?.headers)
        if (target.apiKey === undefined) headers.delete('authorization')
        return target.http.fetch(url, { ...init, headers, timeoutMs, maxResponseBytes: MAX_ANSWER_BYTES })
      }) as never,
    })
  }
}

/** A provider's address and the key it gets (none for a block's own address), called for a workspace. */
interface AiTarget {
  apiKey?: string
  baseURL: string
  http: OutboundCalls
}

/** The same address, give or take a trailing slash and letter case in the scheme and host. */
function sameAddress(a: string, b: string): boolean {
  const normal = (text: string) => {
    try {
      return new URL(text).href.replace(/\/+$/, '')
    } catch {
      return undefined
    }
  }
  const first = normal(a)
  return first !== undefined && first === normal(b)
}

function body(request: ChatCompletionRequest) {
  return {
    model: request.model,
    messages: request.messages,
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
  }
}

function usageOf(usage: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null | undefined) {
  if (!usage || typeof usage.total_tokens !== 'number') return undefined
  return {
    promptTokens: usage.prompt_tokens ?? 0,
    completionTokens: usage.completion_tokens ?? 0,
    totalTokens: usage.total_tokens,
  } satisfies CompletionUsage
}

function timeoutError(ms: number, what = 'an answer'): AiCallError {
  return new AiCallError('timeout', `The AI provider sent no ${what} within ${Math.round(ms / 100) / 10} s`)
}

/** What went wrong, in words fit for the visitor's log; the provider's own words kept apart. */
function aiError(error: unknown, onTimeout: AiCallError): AiCallError {
  if (error instanceof AiCallError) return error
  if (error instanceof APIUserAbortError || error instanceof APIConnectionTimeoutError) return onTimeout
  const outbound = findOutboundError(error)
  if (outbound) {
    switch (outbound.failure) {
      case 'timeout':
        return onTimeout
      case 'refused':
      case 'invalid-url':
        return new AiCallError('refused', "The AI provider's address is refused by this service", undefined, outbound.message)
      case 'too-large':
        return new AiCallError('answer', 'The AI provider sent a larger answer than this service reads', undefined, outbound.message)
      default:
        return new AiCallError('network', 'The AI provider could not be reached', undefined, outbound.message)
    }
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const hint = error.status === 401 ? ' (check the API key)' : error.status === 429 ? ' (rate limited or out of credits)' : ''
    return new AiCallError('status', `The AI provider answered ${error.status}${hint}`, error.status, error.message)
  }
  if (error instanceof APIError) return new AiCallError('network', 'The AI provider could not be reached', undefined, error.message)
  return new AiCallError(
    'answer',
    "The AI provider's answer could not be read",
    undefined,
    error instanceof Error ? error.message : String(error),
  )
}

function findOutboundError(error: unknown): OutboundError | undefined {
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 6; cause = cause.cause, depth++) {
    if (cause instanceof OutboundError) return cause
  }
  return undefined
}
