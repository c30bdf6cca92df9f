import { randomBytes } from 'node:crypto'
import { AiClient } from './ai/ai-client'
import { LiveStreams } from './ai/live-streams'
import type { ServiceConfig } from './config'
import { type CredentialsKey, credentialsKeyFrom } from './credentials/credentials-key'
import { CredentialsVault } from './credentials/credentials-vault'
import { Mailer } from './mail/mailer'
import { AllowList } from './outbound/address-policy'
import { createOutboundHttp, type OutboundHttp, type OutboundOptions } from './outbound/outbound-http'
import type { Store } from './store/store'
import { createFiles, type Files } from './uploads/files'

/**
 * What flows reach beyond the service, built once per process: workspace credentials, the
 * guarded outbound HTTP client and the mailer. Steps get them through their context.
 */
export interface Integrations {
  vault: CredentialsVault
  /** The credentials key, which also seals webhook secrets and signs results cursors. */
  key: CredentialsKey
  outbound: OutboundHttp
  mailer: Mailer
  /** OpenAI-compatible chat completions for AI blocks. */
  ai: AiClient
  /** Streamed AI answers this process reads from a provider (stopped by `close`). */
  streams: LiveStreams
  /** Uploaded files: their storage (disk or S3) and signed URLs. */
  files: Files
  close(): Promise<void>
}

export interface IntegrationsInput {
  config: ServiceConfig
  store: Store
  now: () => Date
  /** The credentials key (see credentials-key.ts); a key for this process only when left out (tests). */
  key?: CredentialsKey
  /** DNS for outgoing calls (tests give names their own addresses). */
  resolve?: OutboundOptions['resolve']
}

export function createIntegrations(input: IntegrationsInput): Integrations {
  const { config, store, now } = input
  const key = input.key ?? credentialsKeyFrom(randomBytes(32).toString('hex'))
  const vault = new CredentialsVault(store.credentials, key, now)
  const outbound = createOutboundHttp({
    allow: AllowList.parse(config.outboundAllowHosts.join(',')).list,
    limits: config.outboundLimits,
    dns: { servers: config.outboundDnsServers },
    ...(input.resolve ? { resolve: input.resolve } : {}),
  })
  const mailer = new Mailer({
    vault,
    outbound,
    outbox: store.outbox,
    ...(config.smtpUrl ? { smtpUrl: config.smtpUrl } : {}),
    ...(config.smtpFrom ? { smtpFrom: config.smtpFrom } : {}),
    now,
  })
  const ai = new AiClient({ vault, outbound, config: config.ai })
  const streams = new LiveStreams()
  const files = createFiles(config.uploads, config.dataDir, key.key)
  return {
    files,
    vault,
    key,
    outbound,
    mailer,
    ai,
    streams,
    async close() {
      await streams.close()
      await outbound.close()
    },
  }
}
