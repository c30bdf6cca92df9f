import type { HandoffSettings } from '../../config'
import type { RateLimiter } from '../../http/rate-limit'
import type { HandoffHub } from './handoff-hub'
import type { OpenStreams } from './open-streams'

/** What the live part of handed-over conversations runs with in one process (built in app.ts). */
export interface HandoffLive {
  /** This process's subscribers, fed through the database's notifications. */
  hub: HandoffHub
  /** Streams open in this process, per workspace and per client network. */
  streams: OpenStreams
  /** Messages and typing signals per visitor session and per token. */
  messages: RateLimiter
  settings: HandoffSettings
}
