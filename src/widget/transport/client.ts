import {
  type ChatReplyMessage,
  type ChatStepResult,
  chatStepResultSchema,
  type StartChatRequest,
  type StartChatResponse,
  startChatResponseSchema,
} from '../../protocol/chat'
import { type PublicFlow, type PublicFlowResponse, publicFlowResponseSchema } from '../../protocol/public-flow'
import { REQUEST_TIMEOUT_MS } from '../../protocol/time-limits'
import { isSetUpRefusal, TransportError } from './errors'
import { type FetchLike, requestJson } from './http'
import { DEFAULT_RETRY_POLICY, type RetryPolicy, type Sleep, withRetry } from './retry'

export interface FlowClientConfig {
  /** Base URL of the flow-management API (`{base_url}`); empty means the page's own origin. */
  apiHost: string
  /** Base URL of the chat API (`{chat_base_url}`); defaults to `apiHost`. */
  chatApiHost?: string
  /** Publishable token, sent only to read the published flow. */
  token?: string
  fetch?: FetchLike
  /** Per attempt, including reading the body. */
  timeoutMs?: number
  retry?: RetryPolicy
  sleep?: Sleep
}

/**
 * The published flow as a publishable token reads it (protocol/public-flow.ts): ids, the theme,
 * the settings a chat reads, and what its blocks need the widget to prepare. The core validates
 * only the theme's layout; the theme's look and the metadata are read only by chunks (theme
 * variables, fonts, the progress bar, launchers), each validating what it reads with the
 * protocol's schemas before using it.
 */
export type PublishedFlowView = PublicFlowResponse
export type PublishedFlow = PublicFlow
export type ChatSettings = NonNullable<PublicFlow['settings']>

/** What the conversation needs from the flow service. */
export interface FlowClient {
  /**
   * The published flow, as last read on this page (a launcher's theme and its chat share one
   * read) unless `fresh`: startChat's `publishedAt` tells whether it is still current.
   */
  getPublishedFlow(flow: string, signal?: AbortSignal, options?: { fresh?: boolean }): Promise<PublishedFlowView>
  /**
   * The set-up refusal (`isSetUpRefusal`: no such flow, not published, token or origin refused)
   * this page's read of `flow` met, if it did: kept for the page's life and given again by
   * `getPublishedFlow` without asking, so no conversation starts on a set-up that cannot work.
   */
  refusal(flow: string): TransportError | undefined
  startChat(flow: string, request: StartChatRequest, signal?: AbortSignal): Promise<StartChatResponse>
  /**
   * Retries with the same `idempotencyKey`, so the service applies the answer (or command) at most
   * once. `null`: no message (the answer a stream produced, which the service recorded itself).
   */
  continueChat(sessionId: string, message: ChatReplyMessage | null, idempotencyKey: string, signal?: AbortSignal): Promise<ChatStepResult>
  /** The chat API and how to reach it, for the requests only chunks make (long-poll.ts, stream.ts). */
  chat: ChatEndpoint
}

/** Where a chat's requests go (`{chat_base_url}`, without a trailing slash), with what fetch, in what time per attempt. */
export interface ChatEndpoint {
  chatApi: string
  fetch: FetchLike
  timeoutMs: number
}

const trimBase = (url: string) => url.trim().replace(/\/+$/, '')

/** Published flows read on this page, and set-up refusals met, per fetch function (tests and instrumented pages keep theirs apart). */
const publishedFlows = new WeakMap<object, Map<string, PublishedFlowView | TransportError>>()
const DEFAULT_FETCH = {}
const segment = encodeURIComponent

export function createFlowClient(config: FlowClientConfig): FlowClient {
  const api = trimBase(config.apiHost)
  const chatApi = trimBase(config.chatApiHost || config.apiHost)
  const policy = config.retry ?? DEFAULT_RETRY_POLICY
  const timeoutMs = config.timeoutMs ?? REQUEST_TIMEOUT_MS
  // Looked up per call, not at creation, so a page can polyfill or instrument fetch later.
  const doFetch: FetchLike = (input, init) => (config.fetch ?? globalThis.fetch)(input, init)
  const retrying = <T>(signal: AbortSignal | undefined, attempt: () => Promise<T>) =>
    withRetry(attempt, policy, { signal, sleep: config.sleep })

  const publishedUrl = (flow: string) => `${api}/v1/flows/${segment(flow)}/publishedFlow?migrateToLatestVersion=true`
  /** What this page read of `flow`'s published flow with this token. */
  const known = (flow: string) => {
    const owner = config.fetch ?? DEFAULT_FETCH
    const read = publishedFlows.get(owner) ?? new Map<string, PublishedFlowView | TransportError>()
    publishedFlows.set(owner, read)
    const key = `${publishedUrl(flow)}\n${config.token ?? ''}`
    return { value: read.get(key), keep: (value: PublishedFlowView | TransportError) => read.set(key, value) }
  }

  return {
    async getPublishedFlow(flow, signal, options = {}) {
      const url = publishedUrl(flow)
      const headers: Record<string, string> = config.token ? { Authorization: `Bearer ${config.token}` } : {}
      const read = known(flow)
      if (read.value instanceof TransportError) throw read.value
      if (read.value && !options.fresh) return read.value
      try {
        const response = await retrying(signal, () =>
          requestJson(url, publicFlowResponseSchema, { headers, signal, timeoutMs, fetch: doFetch }),
        )
        read.keep(response)
        return response
      } catch (error) {
        if (isSetUpRefusal(error)) read.keep(error)
        throw error
      }
    },
    refusal(flow) {
      const { value } = known(flow)
      return value instanceof TransportError ? value : undefined
    },
    startChat(flow, request, signal) {
      const url = `${chatApi}/v1/flows/${segment(flow)}/startChat`
      // A repeated start only leaves an unused session behind, so it is retried like a read.
      return retrying(signal, () =>
        requestJson(url, startChatResponseSchema, {
          method: 'POST',
          body: request,
          signal,
          timeoutMs,
          fetch: doFetch,
        }),
      )
    },
    continueChat(sessionId, message, idempotencyKey, signal) {
      const url = `${chatApi}/v1/sessions/${segment(sessionId)}/continueChat`
      return retrying(signal, () =>
        requestJson(url, chatStepResultSchema, {
          method: 'POST',
          headers: { 'Idempotency-Key': idempotencyKey },
          body: message === null ? {} : { message },
          signal,
          timeoutMs,
          fetch: doFetch,
        }),
      )
    },
    chat: { chatApi, fetch: doFetch, timeoutMs },
  }
}
