import type { Engine } from '../engine/core/types'
import type { SandboxPool } from '../engine/sandbox/sandbox-pool'
import type { PublishedVersions } from '../flows/published-versions'
import type { RateLimiter } from '../http/rate-limit'
import type { Integrations } from '../integrations'
import type { Store } from '../store/store'
import type { HandoffLive } from './handoff/handoff-live'
import type { LeaseTiming, LocalQueue } from './session-leases'
import type { WebhookWaits } from './webhook-waits'

/**
 * What the chat services run with, built once per app (app.ts): the store, the engine, the clock,
 * the published versions, the chat rate limit, the integrations the steps' blocks call, and the
 * process's queues and waits.
 */
export interface ChatDeps {
  store: Store
  engine: Engine
  now: () => Date
  sessionTtlSeconds: number
  /** Published versions, parsed once per process. */
  versions: PublishedVersions
  /** The chat rate limit, taken in each request's first statement. */
  limiter: RateLimiter
  /** Requests for one session in this process, one after another. */
  turns: LocalQueue
  lease: LeaseTiming
  sandbox?: SandboxPool
  /** Credentials, the guarded HTTP client, the mailer and the AI providers the steps' blocks use. */
  integrations: Integrations
  /** Widgets waiting for a wait-for-webhook block, woken when this process ran the step. */
  webhookWaits: WebhookWaits
  /** What one streamed AI answer may cost (see stream-service.ts). */
  streams: StreamLimits
  /** Conversations handed to a person: this process's live streams and their bounds. */
  handoffs: HandoffLive
}

export interface StreamLimits {
  /** The most UTF-8 bytes of text one answer streams (the response byte budget). */
  answerBytes: number
  /** Provider calls streaming at once per workspace, across every process. */
  perWorkspace: number
  /** Requests following or replaying an answer someone else asked for, per answer. */
  replays: RateLimiter
}

/** Responses leave as JSON text: an idempotent replay returns exactly the bytes stored. */
export type ResponseJson = string
