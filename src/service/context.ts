import type { ChatDeps } from './chat/chat-deps'
import type { PublishedVersions } from './flows/published-versions'
import type { ServiceConfig } from './config'
import type { Engine } from './engine/core/types'
import type { TokenAuth } from './http/auth'
import type { RateLimiter } from './http/rate-limit'
import type { Integrations } from './integrations'
import type { Store } from './store/store'

/** What every route handler needs, built once per app. */
export interface AppContext {
  store: Store
  engine: Engine
  config: ServiceConfig
  now: () => Date
  limiters: { chat: RateLimiter; management: RateLimiter }
  /** Bearer tokens and the failed-authentication limit per client address. */
  auth: TokenAuth
  /** Published versions, parsed once per process. */
  versions: PublishedVersions
  chat: ChatDeps
  /** Credentials, the guarded outbound HTTP client and the mailer. */
  integrations: Integrations
}

/** Ids and public ids are URL-safe; anything else cannot name a stored resource. */
const RESOURCE_REF = /^[A-Za-z0-9_-]{1,128}$/

export function isResourceRef(value: string): boolean {
  return RESOURCE_REF.test(value)
}
