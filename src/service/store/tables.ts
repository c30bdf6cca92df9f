import { createHash } from 'node:crypto'
/** A PostgreSQL identifier the service may name a schema by (DATABASE_SCHEMA). */
export const SCHEMA_NAME_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/

/**
 * Fully qualified table names. Every statement names its schema explicitly (rather than relying
 * on `search_path`), so pooled connections and several schemas in one database cannot mix up.
 */
export interface Tables {
  schema: string
  migrations: string
  workspaces: string
  apiTokens: string
  flows: string
  publishedFlows: string
  publishedFlowVersions: string
  results: string
  answers: string
  sessions: string
  idempotencyKeys: string
  rateLimits: string
  credentials: string
  resultLogs: string
  outbox: string
  aiStreams: string
  aiStreamParts: string
  flowWebhooks: string
  webhookDeliveries: string
  uploads: string
  handoffs: string
  handoffEvents: string
  handoffPositions: string
  privacyAudit: string
  jobLeases: string
  identitySecrets: string
  /** The LISTEN/NOTIFY channel of this schema's handoffs (a name, not a table). */
  handoffChannel: string
}

export function tablesFor(schema: string): Tables {
  if (!SCHEMA_NAME_PATTERN.test(schema)) {
    throw new Error(`Invalid database schema name "${schema}"`)
  }
  const q = (table: string) => `"${schema}"."${table}"`
  return {
    schema: `"${schema}"`,
    migrations: q('schema_migrations'),
    workspaces: q('workspaces'),
    apiTokens: q('api_tokens'),
    flows: q('flows'),
    publishedFlows: q('published_flows'),
    publishedFlowVersions: q('published_flow_versions'),
    results: q('results'),
    answers: q('answers'),
    sessions: q('sessions'),
    idempotencyKeys: q('idempotency_keys'),
    rateLimits: q('rate_limits'),
    credentials: q('credentials'),
    resultLogs: q('result_logs'),
    outbox: q('outbox'),
    aiStreams: q('ai_streams'),
    aiStreamParts: q('ai_stream_parts'),
    flowWebhooks: q('flow_webhooks'),
    webhookDeliveries: q('webhook_deliveries'),
    uploads: q('uploads'),
    handoffs: q('handoffs'),
    handoffEvents: q('handoff_events'),
    handoffPositions: q('handoff_positions'),
    privacyAudit: q('privacy_audit'),
    jobLeases: q('job_leases'),
    identitySecrets: q('identity_secrets'),
    handoffChannel: channelOf(schema),
  }
}

/**
 * Schemas share a database (and its notifications): the channel names the schema. A channel is an
 * identifier of at most 63 bytes, and a schema name may be as long, so it is a digest of it.
 */
function channelOf(schema: string): string {
  return `handoffs_${createHash('sha256').update(schema).digest('hex').slice(0, 24)}`
}

/** Timestamps go in and come out as ISO 8601 UTC strings with milliseconds. */
export function isoTimestamp(value: unknown): string {
  if (value instanceof Date) return value.toISOString()
  return new Date(String(value)).toISOString()
}

export function isoTimestampOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : isoTimestamp(value)
}
