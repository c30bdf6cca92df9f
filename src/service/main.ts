import type { Server } from 'node:http'
import { type AddressInfo, isIPv6 } from 'node:net'
import { pathToFileURL } from 'node:url'
import { serve } from '@hono/node-server'
import type { Hono } from 'hono'
import type { DestinationStream } from 'pino'
import { createAppWithContext } from './app'
import { HandoffHub } from './chat/handoff/handoff-hub'
import { HandoffSweep } from './chat/handoff/handoff-sweep'
import { purgeSettingsFor, schedulePurge } from './chat/session-purge'
import { adminSocketPath, serveAdminSocket } from './cli/admin-socket'
import { CLI_COMMAND } from './cli/invocation'
import { localAdmin } from './cli/local-admin'
import { forkWorkers, isClusterPrimary, isClusterWorker } from './cluster'
import { loadConfig, type ServiceConfig } from './config'
import type { AppContext } from './context'
import { loadCredentialsKey } from './credentials/credentials-key'
import type { Engine } from './engine/core/types'
import { createEngine } from './engine/index'
import { SandboxPool } from './engine/sandbox/sandbox-pool'
import { ensureEnvTokens } from './env-tokens'
import { createIntegrations, type Integrations } from './integrations'
import { reportMetricsToPrimary } from './observability/cluster-metrics'
import { configureLogging, log } from './observability/log'
import { RetentionJob } from './privacy/retention-job'
import { QrCodeImages } from './qr-codes/qr-code-images'
import { uploadedFiles } from './results/result-files'
import { openStore, storeOptionsFrom } from './store/open-store'
import type { Store } from './store/store'
import { WebhookDispatcher } from './webhooks/webhook-dispatcher'

export interface StartServerOptions {
  /** Extra routes or middleware (the demo adds the widget bundle and pages). Runs before listening. */
  mount?: (app: Hono, store: Store) => void
  engine?: Engine
  now?: () => Date
  /** Close on SIGINT/SIGTERM (default true); the handlers are removed again by `close()`. */
  handleSignals?: boolean
  /** Interface to listen on (default: the configured `host`, loopback unless HOST says otherwise). */
  hostname?: string
  /** Where log lines go (tests read them); standard output by default. */
  logTo?: DestinationStream
}

export interface RunningServer {
  url: string
  store: Store
  close(): Promise<void>
}

/** How long in-flight requests get to finish on shutdown before connections are cut. */
const SHUTDOWN_GRACE_MS = 5_000

export async function startServer(config: ServiceConfig, options: StartServerOptions = {}): Promise<RunningServer> {
  configureLogging(config.log, options.logTo)
  if (isClusterWorker()) reportMetricsToPrimary()
  const store = await openStore(storeOptionsFrom(config))
  const sandbox = new SandboxPool({ size: config.codeWorkers })
  const qrCodes = new QrCodeImages()
  const inFlight = new InFlight()
  let server: Server | undefined
  let integrations: Integrations | undefined
  let ctx: AppContext | undefined
  const handoffHub = new HandoffHub(store)
  try {
    const now = options.now ?? (() => new Date())
    await ensureEnvTokens(store, config, now())
    integrations = await startIntegrations(config, store, now)
    const mount = options.mount
    const created = createAppWithContext({
      store,
      handoffHub,
      engine:
        options.engine ??
        createEngine({ stepByteBudget: config.stepBudgets.stepBytes, responseByteBudget: config.stepBudgets.responseBytes }),
      config,
      now,
      sandbox,
      qrCodes,
      integrations,
      mount: mount && ((app) => mount(app, store)),
    })
    ctx = created.ctx
    server = await listen(created.app, config.port, options.hostname ?? config.host, inFlight)
  } catch (error) {
    await handoffHub.close()
    await integrations?.close()
    await qrCodes.close()
    await sandbox.close()
    await store.close()
    throw error
  }
  const started = integrations
  const commandLine = config.databaseUrl ? undefined : await answerCommandLine(config, store, started, options.now ?? (() => new Date()))
  const stopPurge = schedulePurge(store, options.now ?? (() => new Date()), purgeSettingsFor(config), undefined, started.files)
  // Every process sends the completion webhooks that are due, whichever process queued them.
  const webhooks = new WebhookDispatcher({ store, key: started.key, outbound: started.outbound, now: options.now ?? (() => new Date()) })
  webhooks.start()
  // Every process ends handed-over conversations whose deadline passed, whoever's they are.
  const handoffSweep = new HandoffSweep(ctx!)
  handoffSweep.start()
  // Every process offers to run the retention job; the one holding its lease in the database does.
  const retention = new RetentionJob({ store, files: started.files, now: options.now ?? (() => new Date()) })
  retention.start(config.retentionIntervalSeconds * 1000)

  const { port } = server.address() as AddressInfo
  const listening = server
  let closing: Promise<void> | undefined
  const onSignal = (signal: NodeJS.Signals) => {
    log().info({ signal }, 'shutting down')
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        log().error({ err: error }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  const close = () => {
    closing ??= (async () => {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
      await commandLine?.close()
      stopPurge()
      await webhooks.stop()
      await handoffSweep.stop()
      await retention.stop()
      // Live streams end now (their clients reconnect to another process), not at their maximum life.
      await handoffHub.close()
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => listening.closeAllConnections(), SHUTDOWN_GRACE_MS)
        force.unref()
        listening.close(() => {
          clearTimeout(force)
          resolve()
        })
        listening.closeIdleConnections()
      })
      // A handler may still be running for a client that went away: let it finish its writes.
      await inFlight.settled(SHUTDOWN_GRACE_MS)
      await started.close()
      await qrCodes.close()
      await sandbox.close()
      await store.close()
    })()
    return closing
  }
  if (options.handleSignals !== false) {
    process.on('SIGINT', onSignal)
    process.on('SIGTERM', onSignal)
    // A cluster worker whose primary is gone stops too.
    if (isClusterWorker()) process.once('disconnect', () => onSignal('SIGTERM'))
  }
  return { url: serviceUrl(options.hostname ?? config.host, port), store, close }
}

/**
 * Where this machine reaches a service listening on `host`: through `localhost` when it listens
 * on loopback or on every interface, else at that address.
 */
export function serviceUrl(host: string, port: number): string {
  const local = ['0.0.0.0', '::', '127.0.0.1', '::1', 'localhost'].includes(host)
  return `http://${local ? 'localhost' : isIPv6(host) ? `[${host}]` : host}:${port}`
}

/**
 * On the embedded database (one process's at a time), the service answers the command line itself,
 * on a socket in its data directory (cli/admin-socket.ts): `npx flow-service …` works beside it.
 */
async function answerCommandLine(config: ServiceConfig, store: Store, integrations: Integrations, now: () => Date) {
  const path = adminSocketPath(config.dataDir)
  const admin = localAdmin({
    store,
    now,
    credentialsKey: async () => integrations.key,
    files: uploadedFiles(store, integrations.files),
    keepVersions: config.keepVersions,
    close: async () => undefined,
  })
  return serveAdminSocket({ path, admin, limitBytes: config.bodyLimits.managementBytes }).catch((error: unknown) => {
    log().warn(
      { err: error },
      `The command line cannot reach this service on ${path}: give it FLOW_SERVICE_URL and FLOW_SECRET_TOKEN instead.`,
    )
    return undefined
  })
}

/**
 * The credentials key (from CREDENTIALS_KEY or made once in DATA_DIR) and what uses it. Stored
 * credentials this key cannot open are a warning now and a log entry when a block needs them.
 */
async function startIntegrations(config: ServiceConfig, store: Store, now: () => Date): Promise<Integrations> {
  const loaded = await loadCredentialsKey(config)
  if (loaded.source === 'generated') {
    log().info(
      `No CREDENTIALS_KEY set: made one in ${loaded.file} (keep it with the data; every process sharing this database needs the same key).`,
    )
  }
  const integrations = createIntegrations({ config, store, now, key: loaded.key })
  const unreadable = await integrations.vault.countUnreadable()
  if (unreadable > 0) {
    log().warn(
      { unreadable },
      `${unreadable} stored credential(s) were encrypted with another key than this CREDENTIALS_KEY and cannot be used until the original key is restored or they are entered again.`,
    )
  }
  return integrations
}

function listen(app: Hono, port: number, hostname: string | undefined, inFlight: InFlight): Promise<Server> {
  return new Promise((resolve, reject) => {
    const fetch = (request: Request, env: unknown) => inFlight.track(() => app.fetch(request, env))
    const server = serve({ fetch, port, hostname }, () => resolve(server as Server)) as Server
    server.once('error', reject)
  })
}

/** Counts requests being handled, so shutdown closes the database only after the last one. */
class InFlight {
  private count = 0
  private idle: (() => void) | undefined

  async track(handle: () => Response | Promise<Response>): Promise<Response> {
    this.count++
    try {
      return await handle()
    } finally {
      if (--this.count === 0) this.idle?.()
    }
  }

  settled(timeoutMs: number): Promise<void> {
    if (this.count === 0) return Promise.resolve()
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs)
      this.idle = () => {
        clearTimeout(timer)
        resolve()
      }
    })
  }
}

async function main(): Promise<void> {
  const config = loadConfig()
  const where = config.databaseUrl ? `PostgreSQL (schema ${config.databaseSchema})` : `PGlite in ${config.dataDir}`
  if (config.workers > 1 && isClusterPrimary()) {
    configureLogging(config.log)
    const workers = await forkWorkers(config.workers)
    log().info(`Flow service listening on ${serviceUrl(config.host, workers.port)} with ${config.workers} processes — data: ${where}`)
    const stop = () => workers.close().then(() => process.exit(0))
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    return
  }
  const running = await startServer(config)
  if (isClusterWorker()) return
  log().info(`Flow service listening on ${running.url} — data: ${where}`)
  if (!config.secretToken) {
    log().info(
      `No FLOW_SECRET_TOKEN set: create one with \`${CLI_COMMAND} token create --kind secret\` (where the service runs, with its DATA_DIR or DATABASE_URL).`,
    )
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    log().fatal({ err: error }, error instanceof Error ? error.message : String(error))
    process.exit(1)
  })
}
