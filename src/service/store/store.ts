import { AiStreamsRepository } from './ai-streams-repository'
import { AnalyticsRepository } from './analytics-repository'
import { ChatStepsRepository } from './chat-steps-repository'
import { CredentialsRepository } from './credentials-repository'
import type { Database, Queryable } from './database'
import { FlowsRepository } from './flows-repository'
import { HandoffsRepository } from './handoffs-repository'
import { IdentityRepository } from './identity-repository'
import { JobLeasesRepository } from './job-leases-repository'
import { migrate } from './migrations'
import { OutboxRepository } from './outbox-repository'
import { PrivacyRepository } from './privacy-repository'
import { PublishedFlowsRepository } from './published-flows-repository'
import { RateLimitsRepository } from './rate-limits-repository'
import { ResultLogsRepository } from './result-logs-repository'
import { ResultsRepository } from './results-repository'
import { SessionsRepository } from './sessions-repository'
import { type Tables, tablesFor } from './tables'
import { TokensRepository } from './tokens-repository'
import { UploadsRepository } from './uploads-repository'
import { WebhooksRepository } from './webhooks-repository'
import { WorkspacesRepository } from './workspaces-repository'

export interface Repositories {
  workspaces: WorkspacesRepository
  tokens: TokensRepository
  flows: FlowsRepository
  publishedFlows: PublishedFlowsRepository
  sessions: SessionsRepository
  results: ResultsRepository
  rateLimits: RateLimitsRepository
  chatSteps: ChatStepsRepository
  resultLogs: ResultLogsRepository
  credentials: CredentialsRepository
  outbox: OutboxRepository
  aiStreams: AiStreamsRepository
  webhooks: WebhooksRepository
  uploads: UploadsRepository
  handoffs: HandoffsRepository
  privacy: PrivacyRepository
  jobLeases: JobLeasesRepository
  identity: IdentityRepository
  analytics: AnalyticsRepository
}

export interface Store extends Repositories {
  readonly database: Database
  readonly tables: Tables
  /** Repositories bound to one transaction: all their writes commit or roll back together. */
  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>
  close(): Promise<void>
}

export const DEFAULT_SCHEMA = 'flow_service'

function repositoriesOver(db: Queryable, tables: Tables): Repositories {
  return {
    workspaces: new WorkspacesRepository(db, tables),
    tokens: new TokensRepository(db, tables),
    flows: new FlowsRepository(db, tables),
    publishedFlows: new PublishedFlowsRepository(db, tables),
    sessions: new SessionsRepository(db, tables),
    results: new ResultsRepository(db, tables),
    rateLimits: new RateLimitsRepository(db, tables),
    chatSteps: new ChatStepsRepository(db, tables),
    resultLogs: new ResultLogsRepository(db, tables),
    credentials: new CredentialsRepository(db, tables),
    outbox: new OutboxRepository(db, tables),
    aiStreams: new AiStreamsRepository(db, tables),
    webhooks: new WebhooksRepository(db, tables),
    uploads: new UploadsRepository(db, tables),
    handoffs: new HandoffsRepository(db, tables),
    privacy: new PrivacyRepository(db, tables),
    jobLeases: new JobLeasesRepository(db, tables),
    identity: new IdentityRepository(db, tables),
    analytics: new AnalyticsRepository(db, tables),
  }
}

/**
 * A store over an open database: migrates `schema` first. `closeDatabase: false` leaves the
 * database open on `close()` (several stores sharing one database in different schemas).
 */
export async function createStore(database: Database, options: { schema?: string; closeDatabase?: boolean } = {}): Promise<Store> {
  const tables = tablesFor(options.schema ?? DEFAULT_SCHEMA)
  await migrate(database, tables)
  let closed = false
  return {
    ...repositoriesOver(database, tables),
    database,
    tables,
    transaction: (fn) => database.transaction((tx) => fn(repositoriesOver(tx, tables))),
    async close() {
      if (closed) return
      closed = true
      if (options.closeDatabase !== false) await database.close()
    },
  }
}
