/**
 * Service configuration from environment variables, validated up front so a typo fails at start
 * with a message naming the variable instead of surfacing later as odd behaviour.
 */
import { Resolver } from 'node:dns'
import { MAX_HEARTBEAT_SECONDS } from '../protocol/follow-event-stream'
import { DEFAULT_UPLOAD_LIMIT_BYTES } from '../protocol/uploads'
import { type AiConfig, DEFAULT_AI_TIMEOUTS } from './ai/ai-config'
import { credentialsKeyFrom } from './credentials/credentials-key'
import { DEFAULT_BYTE_LIMITS } from './engine/core/byte-budget'
import { defaultCodeWorkers } from './engine/sandbox/sandbox'
import { type Env, EnvReader } from './env-reader'
import { tokenKindOf } from './ids'
import { LOG_LEVELS, type LogSettings } from './observability/log'
import { AllowList } from './outbound/address-policy'
import { DEFAULT_OUTBOUND_LIMITS, type OutboundLimits } from './outbound/workspace-limits'
import { SCHEMA_NAME_PATTERN } from './store/tables'
import type { UploadSettings } from './uploads/files'
import type { S3Settings } from './uploads/s3-storage'
import { DEFAULT_UPLOAD_QUOTAS } from './uploads/upload-quotas'

export interface RateLimitConfig {
  /** Tokens refilled per minute; 0 disables the limit. */
  perMinute: number
  /** Bucket size: how many requests may arrive at once after a quiet period. */
  burst: number
}

export interface HandoffSettings {
  /** Event streams (visitors' and inboxes') one process holds open for a workspace (HANDOFF_STREAMS_PER_WORKSPACE). */
  streamsPerWorkspace: number
  /** Event streams one process holds open for one client network (HANDOFF_STREAMS_PER_ADDRESS). */
  streamsPerAddress: number
  /** A stream ends after this long; its client reconnects with Last-Event-ID (HANDOFF_STREAM_MAX_SECONDS). */
  streamMaxSeconds: number
  /** A comment line this often keeps proxies from closing a quiet stream (HANDOFF_HEARTBEAT_SECONDS). */
  heartbeatSeconds: number
  /** Messages and typing signals one visitor or person may send (HANDOFF_MESSAGES_PER_MINUTE, HANDOFF_MESSAGES_BURST). */
  messages: RateLimitConfig
}

export interface ServiceConfig {
  port: number
  /**
   * The interface to listen on (`HOST`): loopback by default, so nothing is reachable from other
   * machines until an operator says so (`0.0.0.0` or `::` for every interface, as in a container).
   */
  host: string
  /**
   * Service processes sharing the port (node:cluster). More than one needs DATABASE_URL: the
   * embedded database lives inside one process.
   */
  workers: number
  /** Worker threads per process running flow code (the sandbox pool). */
  codeWorkers: number
  /**
   * Where visitors reach the service (`https://chat.example.com`, no trailing slash): share pages
   * name their canonical address from it, never from the request's `Host`. Unset: no canonical.
   */
  publicUrl: string | undefined
  /** PGlite data directory, used when `databaseUrl` is not set. */
  dataDir: string
  databaseUrl: string | undefined
  /** Postgres schema holding every table. */
  databaseSchema: string
  secretToken: string | undefined
  publishableToken: string | undefined
  /** Inactivity after which a chat session expires. */
  sessionTtlSeconds: number
  /**
   * Published versions kept per flow (`FLOW_VERSIONS_KEEP`): each publish deletes older ones
   * beyond it, never the live one nor one a conversation still runs on. Undefined: every version is kept.
   */
  keepVersions: number | undefined
  /** How often a process offers to run the retention job (`RETENTION_INTERVAL_SECONDS`); one process at a time runs it. */
  retentionIntervalSeconds: number
  rateLimits: { chat: RateLimitConfig; management: RateLimitConfig }
  /** Failed authentications (401) per client address; past it the address gets 429, right token or not. */
  authFailureLimit: RateLimitConfig
  /** Streamed AI answers: provider calls streaming at once per workspace, and replays of one answer. */
  aiStreams: { perWorkspace: number; replays: RateLimitConfig }
  bodyLimits: { managementBytes: number; chatBytes: number }
  /** Conversations handed to a person (chat/handoff): what their live streams may hold open and send. */
  handoffs: HandoffSettings
  /** What one chat step may produce and send (see engine/core/byte-budget.ts). */
  stepBudgets: { stepBytes: number; responseBytes: number }
  /**
   * How many proxies you run in front of the service. The client address is then the entry that
   * many places from the right of `X-Forwarded-For` (what the outermost of your proxies saw);
   * entries further left were written by the client and are never believed. 0: the header is ignored.
   */
  trustProxyHops: number
  /** Hosts, addresses and ranges flows may call although the outbound guard refuses them. */
  outboundAllowHosts: string[]
  /** Calls per step and per workspace (HTTP_CALLS_PER_STEP, OUTBOUND_*_PER_WORKSPACE). */
  outboundLimits: OutboundLimits
  /** Name servers for outgoing calls (`address[:port]`); the system's when empty. */
  outboundDnsServers: string[]
  /** Service-wide SMTP server (`smtp://` or `smtps://`), used when a block names no credentials. */
  smtpUrl: string | undefined
  /** Sender of e-mails sent through `smtpUrl` (`Name <address>` or an address). */
  smtpFrom: string | undefined
  /** Key encrypting stored credentials (32 bytes, base64 or hex); generated into DATA_DIR when unset. */
  credentialsKey: string | undefined
  /** AI blocks: the service-wide provider keys and the timeouts of a provider's answer. */
  ai: AiConfig
  /** File uploads: the most bytes per file (UPLOAD_MAX_BYTES), quotas (UPLOAD_*) and an S3-compatible store (S3_*). */
  uploads: UploadSettings
  /** LOG_LEVEL, LOG_FORMAT; errors' stacks only when NODE_ENV=development. */
  log: LogSettings
  /** The bearer token `/metrics` asks for; unset, there is no `/metrics`. */
  metricsToken: string | undefined
}

/** S3_BUCKET turns the S3-compatible store on; its keys then are required. */
function readS3(read: EnvReader): S3Settings | undefined {
  const bucket = read.string('S3_BUCKET')
  if (bucket === undefined) return undefined
  return {
    bucket,
    endpoint: read.baseUrl('S3_ENDPOINT'),
    region: read.string('S3_REGION') ?? 'us-east-1',
    accessKeyId: read.required('S3_ACCESS_KEY_ID'),
    secretAccessKey: read.required('S3_SECRET_ACCESS_KEY'),
    forcePathStyle: read.string('S3_FORCE_PATH_STYLE') !== 'false',
    prefix: read.string('S3_PREFIX') ?? '',
  }
}

export const DEFAULT_CONFIG: ServiceConfig = {
  port: 8787,
  host: '127.0.0.1',
  workers: 1,
  codeWorkers: defaultCodeWorkers(1),
  publicUrl: undefined,
  dataDir: './.data',
  databaseUrl: undefined,
  databaseSchema: 'flow_service',
  secretToken: undefined,
  publishableToken: undefined,
  sessionTtlSeconds: 86_400,
  keepVersions: undefined,
  retentionIntervalSeconds: 3_600,
  rateLimits: {
    chat: { perMinute: 300, burst: 60 },
    management: { perMinute: 600, burst: 120 },
  },
  authFailureLimit: { perMinute: 10, burst: 20 },
  aiStreams: { perWorkspace: 10, replays: { perMinute: 2, burst: 4 } },
  bodyLimits: { managementBytes: 2 * 1024 * 1024, chatBytes: 64 * 1024 },
  handoffs: {
    streamsPerWorkspace: 500,
    streamsPerAddress: 20,
    streamMaxSeconds: 300,
    heartbeatSeconds: 15,
    messages: { perMinute: 60, burst: 20 },
  },
  stepBudgets: { ...DEFAULT_BYTE_LIMITS },
  trustProxyHops: 0,
  outboundAllowHosts: [],
  outboundLimits: { ...DEFAULT_OUTBOUND_LIMITS },
  outboundDnsServers: [],
  smtpUrl: undefined,
  smtpFrom: undefined,
  credentialsKey: undefined,
  ai: { defaults: {}, timeouts: { ...DEFAULT_AI_TIMEOUTS } },
  uploads: { maxBytes: DEFAULT_UPLOAD_LIMIT_BYTES, s3: undefined, quotas: { ...DEFAULT_UPLOAD_QUOTAS } },
  log: { level: 'info', format: 'auto', stacks: false },
  metricsToken: undefined,
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

export function loadConfig(env: Env = process.env): ServiceConfig {
  const problems: string[] = []
  const read = new EnvReader(env, problems)
  const d = DEFAULT_CONFIG

  const config: ServiceConfig = {
    port: read.integer('PORT', d.port, 0, 65_535),
    host: read.host('HOST', d.host),
    workers: read.integer('WORKERS', d.workers, 1, 64),
    codeWorkers: 0, // below: its default depends on WORKERS
    publicUrl: read.baseUrl('PUBLIC_URL'),
    dataDir: read.string('DATA_DIR') ?? d.dataDir,
    databaseUrl: read.string('DATABASE_URL'),
    databaseSchema: read.string('DATABASE_SCHEMA') ?? d.databaseSchema,
    secretToken: read.string('FLOW_SECRET_TOKEN'),
    publishableToken: read.string('FLOW_PUBLISHABLE_TOKEN'),
    sessionTtlSeconds: read.integer('SESSION_TTL_SECONDS', d.sessionTtlSeconds, 1, 31_536_000),
    keepVersions: read.string('FLOW_VERSIONS_KEEP') === undefined ? undefined : read.integer('FLOW_VERSIONS_KEEP', 1, 1, 1_000_000),
    retentionIntervalSeconds: read.integer('RETENTION_INTERVAL_SECONDS', d.retentionIntervalSeconds, 1, 604_800),
    rateLimits: {
      chat: {
        perMinute: read.integer('RATE_LIMIT_CHAT_PER_MINUTE', d.rateLimits.chat.perMinute, 0, 1e7),
        burst: read.integer('RATE_LIMIT_CHAT_BURST', d.rateLimits.chat.burst, 1, 1e7),
      },
      management: {
        perMinute: read.integer('RATE_LIMIT_MANAGEMENT_PER_MINUTE', d.rateLimits.management.perMinute, 0, 1e7),
        burst: read.integer('RATE_LIMIT_MANAGEMENT_BURST', d.rateLimits.management.burst, 1, 1e7),
      },
    },
    authFailureLimit: {
      perMinute: read.integer('RATE_LIMIT_AUTH_FAILURES_PER_MINUTE', d.authFailureLimit.perMinute, 0, 1e7),
      burst: read.integer('RATE_LIMIT_AUTH_FAILURES_BURST', d.authFailureLimit.burst, 1, 1e7),
    },
    aiStreams: {
      perWorkspace: read.integer('AI_STREAMS_PER_WORKSPACE', d.aiStreams.perWorkspace, 1, 100_000),
      replays: {
        perMinute: read.integer('AI_STREAM_REPLAYS_PER_MINUTE', d.aiStreams.replays.perMinute, 0, 1e7),
        burst: read.integer('AI_STREAM_REPLAYS_BURST', d.aiStreams.replays.burst, 1, 1e7),
      },
    },
    bodyLimits: {
      managementBytes: read.integer('BODY_LIMIT_MANAGEMENT_BYTES', d.bodyLimits.managementBytes, 1024, 1 << 30),
      chatBytes: read.integer('BODY_LIMIT_CHAT_BYTES', d.bodyLimits.chatBytes, 1024, 1 << 30),
    },
    handoffs: {
      streamsPerWorkspace: read.integer('HANDOFF_STREAMS_PER_WORKSPACE', d.handoffs.streamsPerWorkspace, 1, 1_000_000),
      streamsPerAddress: read.integer('HANDOFF_STREAMS_PER_ADDRESS', d.handoffs.streamsPerAddress, 1, 1_000_000),
      streamMaxSeconds: read.integer('HANDOFF_STREAM_MAX_SECONDS', d.handoffs.streamMaxSeconds, 5, 3_600),
      heartbeatSeconds: read.integer('HANDOFF_HEARTBEAT_SECONDS', d.handoffs.heartbeatSeconds, 1, MAX_HEARTBEAT_SECONDS),
      messages: {
        perMinute: read.integer('HANDOFF_MESSAGES_PER_MINUTE', d.handoffs.messages.perMinute, 0, 1e7),
        burst: read.integer('HANDOFF_MESSAGES_BURST', d.handoffs.messages.burst, 1, 1e7),
      },
    },
    stepBudgets: {
      stepBytes: read.integer('STEP_BYTE_BUDGET', d.stepBudgets.stepBytes, 64 * 1024, 1 << 30),
      responseBytes: read.integer('RESPONSE_BYTE_BUDGET', d.stepBudgets.responseBytes, 16 * 1024, 1 << 30),
    },
    trustProxyHops: read.hops('TRUST_PROXY', d.trustProxyHops),
    outboundAllowHosts: read.list('OUTBOUND_ALLOW_HOSTS'),
    outboundLimits: {
      callsPerStep: read.integer('HTTP_CALLS_PER_STEP', d.outboundLimits.callsPerStep, 1, 1000),
      workspaceCalls: read.integer('OUTBOUND_CALLS_PER_WORKSPACE', d.outboundLimits.workspaceCalls, 1, 10_000),
      workspaceLookups: read.integer('OUTBOUND_LOOKUPS_PER_WORKSPACE', d.outboundLimits.workspaceLookups, 1, 1000),
    },
    outboundDnsServers: read.list('OUTBOUND_DNS_SERVERS'),
    smtpUrl: read.string('SMTP_URL'),
    smtpFrom: read.string('SMTP_FROM'),
    credentialsKey: read.string('CREDENTIALS_KEY'),
    ai: {
      defaults: {
        ...read.aiKey('openai', 'OPENAI_API_KEY', 'OPENAI_BASE_URL'),
        ...read.aiKey('mistral', 'MISTRAL_API_KEY', 'MISTRAL_BASE_URL'),
      },
      timeouts: {
        firstTokenMs: read.integer('AI_FIRST_TOKEN_TIMEOUT_SECONDS', d.ai.timeouts.firstTokenMs / 1000, 1, 120) * 1000,
        idleMs: read.integer('AI_IDLE_TIMEOUT_SECONDS', d.ai.timeouts.idleMs / 1000, 1, 120) * 1000,
        totalMs: read.integer('AI_TOTAL_TIMEOUT_SECONDS', d.ai.timeouts.totalMs / 1000, 1, 120) * 1000,
      },
    },
    uploads: {
      maxBytes: read.integer('UPLOAD_MAX_BYTES', d.uploads.maxBytes, 1, 2 ** 40),
      s3: readS3(read),
      quotas: {
        sessionBytes: read.integer('UPLOAD_SESSION_QUOTA_BYTES', d.uploads.quotas.sessionBytes, 1, 2 ** 50),
        clientUnsentBytes: read.integer('UPLOAD_CLIENT_UNSENT_BYTES', d.uploads.quotas.clientUnsentBytes, 1, 2 ** 50),
        workspaceUnsentBytes: read.integer('UPLOAD_WORKSPACE_UNSENT_BYTES', d.uploads.quotas.workspaceUnsentBytes, 1, 2 ** 50),
        unsentSeconds: read.integer('UPLOAD_UNSENT_SECONDS', d.uploads.quotas.unsentSeconds, 60, 31_536_000),
        reserveBytes: read.integer('UPLOAD_DISK_RESERVE_BYTES', d.uploads.quotas.reserveBytes, 0, 2 ** 50),
      },
    },
    log: {
      level: read.choice('LOG_LEVEL', LOG_LEVELS, d.log.level),
      format: read.choice('LOG_FORMAT', ['json', 'pretty'] as const, d.log.format),
      stacks: read.string('NODE_ENV') === 'development',
    },
    metricsToken: read.string('METRICS_TOKEN'),
  }

  config.codeWorkers = read.integer('CODE_WORKERS', defaultCodeWorkers(config.workers), 1, 64)
  if (config.workers > 1 && config.databaseUrl === undefined) {
    problems.push(
      `WORKERS=${config.workers} needs DATABASE_URL: the embedded database (PGlite) lives inside one process and ` +
        'cannot be shared by several. Point DATABASE_URL at a PostgreSQL server, or run one process (WORKERS=1).',
    )
  }
  if (config.databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(config.databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql://')
  }
  if (!SCHEMA_NAME_PATTERN.test(config.databaseSchema)) {
    problems.push('DATABASE_SCHEMA must be a lower-case identifier (letters, digits, _; at most 63)')
  }
  if (config.secretToken !== undefined && tokenKindOf(config.secretToken) !== 'secret') {
    problems.push('FLOW_SECRET_TOKEN must look like fs_sk_ followed by 43 base64url characters')
  }
  if (config.publishableToken !== undefined && tokenKindOf(config.publishableToken) !== 'publishable') {
    problems.push('FLOW_PUBLISHABLE_TOKEN must look like fs_pk_ followed by 43 base64url characters')
  }
  for (const problem of AllowList.parse(config.outboundAllowHosts.join(',')).problems) {
    problems.push(`OUTBOUND_ALLOW_HOSTS: ${problem}`)
  }
  if (!areNameServers(config.outboundDnsServers)) {
    problems.push('OUTBOUND_DNS_SERVERS must list IP addresses, each with an optional port (10.0.0.2, 10.0.0.3:53, [fd00::53]:53)')
  }
  if (config.smtpUrl !== undefined && !/^smtps?:\/\/[^/?#]/.test(config.smtpUrl)) {
    problems.push('SMTP_URL must start with smtp:// or smtps:// and name a host')
  }
  if (config.credentialsKey !== undefined && !isCredentialsKey(config.credentialsKey)) {
    problems.push('CREDENTIALS_KEY must be 32 bytes written as 64 hexadecimal or 44 base64 characters')
  }
  if (config.metricsToken !== undefined && !/^[\x21-\x7e]{16,256}$/.test(config.metricsToken)) {
    problems.push('METRICS_TOKEN must be 16 to 256 visible ASCII characters, no spaces (a long random one: it guards /metrics)')
  }
  if (problems.length > 0) throw new ConfigError(problems)
  return config
}

function areNameServers(servers: string[]): boolean {
  try {
    new Resolver().setServers(servers)
    return true
  } catch {
    return false
  }
}

function isCredentialsKey(text: string): boolean {
  try {
    credentialsKeyFrom(text)
    return true
  } catch {
    return false
  }
}
