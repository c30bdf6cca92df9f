import { Hono } from 'hono'
import { HandoffHub } from './chat/handoff/handoff-hub'
import { OpenStreams } from './chat/handoff/open-streams'
import { DEFAULT_LEASE_TIMING, type LeaseTiming, LocalQueue } from './chat/session-leases'
import { WebhookWaits } from './chat/webhook-waits'
import type { ServiceConfig } from './config'
import type { AppContext } from './context'
import type { Engine } from './engine/core/types'
import type { SandboxPool } from './engine/sandbox/sandbox-pool'
import { PublishedVersions } from './flows/published-versions'
import { handleError, handleNotFound } from './http/errors'
import { RateLimiter } from './http/rate-limit'
import { requestLog } from './http/request-log'
import { createIntegrations, type Integrations } from './integrations'
import { type QrCodeImages, sharedQrCodeImages } from './qr-codes/qr-code-images'
import { registerAdminRoutes } from './routes/admin'
import { registerAnalyticsRoutes } from './routes/analytics'
import { registerChatRoutes } from './routes/chat'
import { registerCredentialRoutes } from './routes/credentials'
import { registerFlowTestRoutes } from './routes/flow-tests'
import { registerFlowVersionRoutes } from './routes/flow-versions'
import { registerFlowRoutes } from './routes/flows'
import { registerHandoffRoutes } from './routes/handoffs'
import { registerHealthRoutes } from './routes/health'
import { registerIdentitySecretRoutes } from './routes/identity-secrets'
import { registerMetricsRoute } from './routes/metrics'
import { registerPrivacyRoutes } from './routes/privacy'
import { registerQrCodeRoutes } from './routes/qr-code'
import { registerResultRoutes } from './routes/results'
import { registerSandboxRoutes } from './routes/sandbox'
import { registerShareRoutes } from './routes/share'
import { registerTokenRoutes } from './routes/tokens'
import { registerUploadRoutes } from './routes/uploads'
import { registerWebhookRoutes } from './routes/webhooks'
import { registerWidgetRoutes } from './routes/widget'
import type { Store } from './store/store'

export interface AppDeps {
  store: Store
  engine: Engine
  config: ServiceConfig
  /** The clock for timestamps, session expiry and rate limits (tests pin it). */
  now?: () => Date
  /** The folder holding the script sandbox document and its scripts; defaults to the widget's. */
  sandboxDocumentDir?: string
  /** The folder holding the built widget (its scripts and chunks); defaults to the repository's dist/. */
  widgetDistDir?: string
  /** Credentials, outbound HTTP and mail (startServer builds them with the configured key). */
  integrations?: Integrations
  /** Extra routes (the demo pages, the widget bundle); they win over the share page's `/:publicId`. */
  mount?: (app: Hono) => void
  /** Workers for flow code; the process's shared pool when left out. */
  sandbox?: SandboxPool
  /** How long a step's session lease lasts, and how long an answer waits for one (tests shorten them). */
  leaseTiming?: LeaseTiming
  /** QR code pictures and their drawing thread; one for the process when left out. */
  qrCodes?: QrCodeImages
  /**
   * The process's live conversations (handed to a person), fed by the database's notifications;
   * whoever passes it closes it (startServer, the tests). One for this app when left out.
   */
  handoffHub?: HandoffHub
}

/** The service as a Hono app: mount it in a server, or call `app.request()` in process. */
export function createApp(deps: AppDeps): Hono {
  return createAppWithContext(deps).app
}

/** The app and what its routes run with (for the processes' background work: the handoffs' sweep). */
export function createAppWithContext(deps: AppDeps): { app: Hono; ctx: AppContext } {
  const now = deps.now ?? (() => new Date())
  const { store, config } = deps
  const limiters = {
    chat: new RateLimiter(config.rateLimits.chat, now, store.rateLimits),
    management: new RateLimiter(config.rateLimits.management, now, store.rateLimits),
  }
  const ctx: AppContext = {
    store,
    engine: deps.engine,
    config,
    now,
    sessionTtlSeconds: config.sessionTtlSeconds,
    versions: new PublishedVersions(store.publishedFlows),
    limiter: limiters.chat,
    limiters,
    auth: {
      tokens: store.tokens,
      failures: new RateLimiter(config.authFailureLimit, now, store.rateLimits),
      trustProxyHops: config.trustProxyHops,
    },
    turns: new LocalQueue(),
    lease: deps.leaseTiming ?? DEFAULT_LEASE_TIMING,
    sandbox: deps.sandbox,
    integrations: deps.integrations ?? createIntegrations({ config, store, now }),
    webhookWaits: new WebhookWaits(),
    qrCodes: deps.qrCodes ?? sharedQrCodeImages(),
    streams: {
      answerBytes: config.stepBudgets.responseBytes,
      perWorkspace: config.aiStreams.perWorkspace,
      replays: new RateLimiter(config.aiStreams.replays, now, store.rateLimits),
    },
    handoffs: {
      hub: deps.handoffHub ?? new HandoffHub(store),
      streams: new OpenStreams(config.handoffs),
      messages: new RateLimiter(config.handoffs.messages, now, store.rateLimits),
      settings: config.handoffs,
    },
  }

  const app = new Hono()
  app.onError(handleError)
  app.notFound(handleNotFound)
  app.use(requestLog({ trustProxyHops: config.trustProxyHops, publicUrl: config.publicUrl }))

  app.use('/v1/*', async (c, next) => {
    // API answers are per caller and per moment: never cache them, never sniff them as HTML.
    // Set before the handler, so the response is built with them once rather than copied after.
    c.header('Cache-Control', 'no-store')
    c.header('X-Content-Type-Options', 'nosniff')
    await next()
  })

  registerHealthRoutes(app, { database: store.database, uploads: ctx.integrations.files })
  registerFlowRoutes(app, ctx)
  registerFlowVersionRoutes(app, ctx)
  registerFlowTestRoutes(app, ctx)
  registerChatRoutes(app, ctx)
  registerHandoffRoutes(app, ctx)
  registerUploadRoutes(app, ctx)
  registerQrCodeRoutes(app, ctx)
  registerCredentialRoutes(app, ctx)
  registerResultRoutes(app, ctx)
  registerAnalyticsRoutes(app, ctx)
  registerPrivacyRoutes(app, ctx)
  registerTokenRoutes(app, ctx)
  registerIdentitySecretRoutes(app, ctx)
  registerWebhookRoutes(app, ctx)
  registerSandboxRoutes(app, { documentDir: deps.sandboxDocumentDir })
  registerWidgetRoutes(app, { distDir: deps.widgetDistDir })
  registerAdminRoutes(app, { distDir: deps.widgetDistDir && `${deps.widgetDistDir}/admin` })
  registerMetricsRoute(app, { token: config.metricsToken, auth: ctx.auth })
  deps.mount?.(app)
  // Last: `/:publicId` would otherwise shadow other one-segment routes.
  registerShareRoutes(app, ctx)
  return { app, ctx }
}
