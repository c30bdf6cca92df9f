import { Hono } from 'hono'
import type { ServiceConfig } from './config'
import type { AppContext } from './context'
import type { Engine } from './engine/types'
import { handleError, handleNotFound } from './http/errors'
import { RateLimiter } from './http/rate-limit'
import { SessionQueue } from './chat/session-queue'
import { WebhookWaits } from './chat/webhook-waits'
import { createIntegrations, type Integrations } from './integrations'
import { registerCredentialRoutes } from './routes/credentials'
import { registerResultRoutes } from './routes/results'
import { registerChatRoutes } from './routes/chat'
import { registerFlowRoutes } from './routes/flows'
import { registerSandboxRoutes } from './routes/sandbox'
import { registerShareRoutes } from './routes/share'
import type { Store } from './store/store'

export interface AppDeps {
  store: Store
  engine: Engine
  config: ServiceConfig
  /** The clock for timestamps, session expiry and rate limits (tests pin it). */
  now?: () => Date
  /** The folder holding the script sandbox document and its scripts; defaults to the widget's. */
  sandboxDocumentDir?: string
  /** Credentials, outbound HTTP and mail (startServer builds them with the configured key). */
  integrations?: Integrations
  /** Extra routes (the demo pages, the widget bundle); they win over the share page's `/:publicId`. */
  mount?: (app: Hono) => void
}

/** The service as a Hono app: mount it in a server, or call `app.request()` in process. */
export function createApp(deps: AppDeps): Hono {
  const now = deps.now ?? (() => new Date())
  const ctx: AppContext = {
    store: deps.store,
    engine: deps.engine,
    config: deps.config,
    now,
    limiters: {
      chat: new RateLimiter(deps.config.rateLimits.chat, now),
      management: new RateLimiter(deps.config.rateLimits.management, now),
    },
    integrations: deps.integrations ?? createIntegrations({ config: deps.config, store: deps.store, now }),
    sessions: new SessionQueue(),
    webhookWaits: new WebhookWaits(),
  }

  const app = new Hono()
  app.onError(handleError)
  app.notFound(handleNotFound)

  app.use('/v1/*', async (c, next) => {
    await next()
    // API answers are per caller and per moment: never cache them, never sniff them as HTML.
    c.header('Cache-Control', 'no-store')
    c.header('X-Content-Type-Options', 'nosniff')
  })

  app.get('/v1/health', async (c) => {
    await deps.store.database.query('SELECT 1')
    return c.json({ status: 'ok' })
  })

  registerFlowRoutes(app, ctx)
  registerChatRoutes(app, ctx)
  registerCredentialRoutes(app, ctx)
  registerResultRoutes(app, ctx)
  registerSandboxRoutes(app, { documentDir: deps.sandboxDocumentDir })
  deps.mount?.(app)
  // Last: `/:publicId` would otherwise shadow other one-segment routes.
  registerShareRoutes(app, ctx)
  return app
}
