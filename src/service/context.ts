import type { ChatDeps } from './chat/chat-deps'
import type { ServiceConfig } from './config'
import type { TokenAuth } from './http/auth'
import type { RateLimiter } from './http/rate-limit'
import type { QrCodeImages } from './qr-codes/qr-code-images'

/**
 * What every route handler needs, built once per app: what the chat services run with (the
 * store, the engine, the clock, the published versions, the integrations, …) and what the other
 * routes add.
 */
export interface AppContext extends ChatDeps {
  config: ServiceConfig
  /** The chat limit (the chat services' `limiter`) and the management API's. */
  limiters: { chat: RateLimiter; management: RateLimiter }
  /** Bearer tokens and the failed-authentication limit per client address. */
  auth: TokenAuth
  /** QR code pictures, drawn off the event loop. */
  qrCodes: QrCodeImages
}
