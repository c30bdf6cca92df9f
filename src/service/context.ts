import type { ServiceConfig } from './config'
import type { Engine } from './engine/types'
import type { RateLimiter } from './http/rate-limit'
import type { ChatDeps } from './chat/chat-service'
import type { SessionQueue } from './chat/session-queue'
import type { WebhookWaits } from './chat/webhook-waits'
import type { Integrations } from './integrations'
import type { Store } from './store/store'

/** What every route handler needs, built once per app. */
export interface AppContext {
  store: Store
  engine: Engine
  config: ServiceConfig
  now: () => Date
  limiters: { chat: RateLimiter; management: RateLimiter }
  integrations: Integrations
  /** Steps of one session in this process, one at a time. */
  sessions: SessionQueue
  /** Widgets waiting for a wait-for-webhook block, woken when this process ran the step. */
  webhookWaits: WebhookWaits
}

/** What the chat services need, from the app's context. */
export function chatDeps(ctx: AppContext): ChatDeps {
  return {
    store: ctx.store,
    engine: ctx.engine,
    now: ctx.now,
    sessionTtlSeconds: ctx.config.sessionTtlSeconds,
    integrations: ctx.integrations,
    sessions: ctx.sessions,
  }
}

/** Ids and public ids are URL-safe; anything else cannot name a stored resource. */
const RESOURCE_REF = /^[A-Za-z0-9_-]{1,128}$/

export function isResourceRef(value: string): boolean {
  return RESOURCE_REF.test(value)
}
