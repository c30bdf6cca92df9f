import type { ApiKeyCredentialData } from '../../protocol/credentials'
import type { AiProvider } from '../engine/core/ports'

/** The AI configuration read at start (see config.ts), apart from the client so reading it loads no SDK. */

export interface AiTimeouts {
  /** From the request to the first text of the answer. */
  firstTokenMs: number
  /** Between two parts of a streamed answer. */
  idleMs: number
  /** The whole answer. */
  totalMs: number
}

export const DEFAULT_AI_TIMEOUTS: AiTimeouts = { firstTokenMs: 30_000, idleMs: 30_000, totalMs: 120_000 }

export interface AiConfig {
  /** Service-wide keys (OPENAI_API_KEY + OPENAI_BASE_URL, MISTRAL_API_KEY + MISTRAL_BASE_URL). */
  defaults: Partial<Record<AiProvider, ApiKeyCredentialData>>
  timeouts: AiTimeouts
}

export const PROVIDER_BASE_URLS: Record<AiProvider, string> = {
  openai: 'https://api.openai.com/v1',
  mistral: 'https://api.mistral.ai/v1',
}
export const PROVIDER_ENV: Record<AiProvider, string> = { openai: 'OPENAI_API_KEY', mistral: 'MISTRAL_API_KEY' }
