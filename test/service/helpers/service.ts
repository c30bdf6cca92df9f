import type { Hono } from 'hono'
import { type AppDeps, createAppWithContext } from '../../../src/service/app'
import { HandoffHub } from '../../../src/service/chat/handoff/handoff-hub'
import { DEFAULT_CONFIG, type ServiceConfig } from '../../../src/service/config'
import type { AppContext } from '../../../src/service/context'
import type { Engine } from '../../../src/service/engine/core/types'
import { hashToken, newId, newToken, type TokenKind } from '../../../src/service/ids'
import { createIntegrations, type Integrations, type IntegrationsInput } from '../../../src/service/integrations'
import { configureLogging } from '../../../src/service/observability/log'
import { createStore, type Store } from '../../../src/service/store/store'
import { TestClock } from './clock'
import { dropSchema, freshSchema, type TestDatabase } from './database'
import { QUIET_LOG } from './logs'

export const WORKSPACE = 'demo'
export const OTHER_WORKSPACE = 'other'

export interface CallOptions {
  /** Serialised as JSON with `Content-Type: application/json`. */
  json?: unknown
  /** Sent as is (no Content-Type unless given in `headers`). */
  raw?: BodyInit
  token?: string
  headers?: Record<string, string>
}

export interface CallResult {
  status: number
  headers: Headers
  // Tests inspect bodies freely; the contract schemas check their shape where it matters.
  body: any
  text: string
}

export interface TestService {
  app: Hono
  /** What the routes run with (the handoffs' sweep runs with it). */
  ctx: AppContext
  store: Store
  config: ServiceConfig
  clock: TestClock
  integrations: Integrations
  schema: string
  tokens: { secret: string; publishable: string; otherSecret: string; otherPublishable: string }
  call(method: string, path: string, options?: CallOptions): Promise<CallResult>
  close(): Promise<void>
}

/** Rate limits are off unless a test turns them on: the suite must not trip over them. */
export const TEST_CONFIG: ServiceConfig = {
  ...DEFAULT_CONFIG,
  rateLimits: { chat: { perMinute: 0, burst: 1 }, management: { perMinute: 0, burst: 1 } },
  authFailureLimit: { perMinute: 0, burst: 1 },
  aiStreams: { ...DEFAULT_CONFIG.aiStreams, replays: { perMinute: 0, burst: 1 } },
  trustProxyHops: 1,
  log: QUIET_LOG,
}
// What the services of a test file write goes to the same quiet log (tests read it with captureLogs).
configureLogging(TEST_CONFIG.log)

export async function createTestService(
  db: TestDatabase,
  options: {
    config?: Partial<ServiceConfig>
    engine?: Engine
    schema?: string
    /** More of the app's dependencies (a sandbox pool, lease timing). */
    app?: Pick<AppDeps, 'sandbox' | 'leaseTiming' | 'qrCodes'>
    /** DNS for outgoing calls (names of the test's own). */
    resolve?: IntegrationsInput['resolve']
  } = {},
): Promise<TestService> {
  const schema = options.schema ?? freshSchema()
  const store = await createStore(db.database, { schema, closeDatabase: false })
  const clock = new TestClock()
  const config = { ...TEST_CONFIG, ...options.config }
  const engine = options.engine ?? (await loadEngine())
  const integrations = createIntegrations({ config, store, now: clock.now, ...(options.resolve ? { resolve: options.resolve } : {}) })
  const handoffHub = new HandoffHub(store)
  const { app, ctx } = createAppWithContext({ store, engine, config, now: clock.now, integrations, handoffHub, ...options.app })

  await store.workspaces.ensure(WORKSPACE, 'Demo', clock.now())
  await store.workspaces.ensure(OTHER_WORKSPACE, 'Other', clock.now())
  const tokens = {
    secret: await issueToken(store, WORKSPACE, 'secret'),
    publishable: await issueToken(store, WORKSPACE, 'publishable'),
    otherSecret: await issueToken(store, OTHER_WORKSPACE, 'secret'),
    otherPublishable: await issueToken(store, OTHER_WORKSPACE, 'publishable'),
  }

  return {
    app,
    ctx,
    store,
    config,
    clock,
    integrations,
    schema,
    tokens,
    call: (method, path, callOptions) => call(app, method, path, callOptions),
    async close() {
      await handoffHub.close()
      await integrations.close()
      await store.close()
      await dropSchema(db.database, schema)
    },
  }
}

export async function issueToken(store: Store, workspaceId: string, kind: TokenKind): Promise<string> {
  const token = newToken(kind)
  await store.tokens.insert({
    id: newId(),
    workspaceId,
    kind,
    tokenHash: hashToken(token),
    label: null,
    createdAt: new Date(),
  })
  return token
}

export async function call(app: Hono, method: string, path: string, options: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = {}
  let body: BodyInit | undefined
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(options.json)
  } else if (options.raw !== undefined) {
    body = options.raw
  }
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
  Object.assign(headers, options.headers)
  const response = await app.request(path, { method, headers, body })
  const text = await response.text()
  let parsed: unknown
  try {
    parsed = text === '' ? undefined : JSON.parse(text)
  } catch {
    parsed = undefined
  }
  return { status: response.status, headers: response.headers, body: parsed, text }
}

/** The real engine; imported lazily so tests that never chat do not depend on it. */
async function loadEngine(): Promise<Engine> {
  const { createEngine } = await import('../../../src/service/engine/index')
  return createEngine()
}
