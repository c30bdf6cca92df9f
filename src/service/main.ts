import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { pathToFileURL } from 'node:url'
import { serve } from '@hono/node-server'
import type { Hono } from 'hono'
import { createApp } from './app'
import { loadConfig, type ServiceConfig } from './config'
import { createEngine } from './engine/index'
import type { Engine } from './engine/types'
import { loadCredentialsKey } from './credentials/credentials-key'
import { ensureEnvTokens } from './env-tokens'
import { createIntegrations, type Integrations } from './integrations'
import { openStore, storeOptionsFrom } from './store/open-store'
import type { Store } from './store/store'

export interface StartServerOptions {
  /** Extra routes or middleware (the demo adds the widget bundle and pages). Runs before listening. */
  mount?: (app: Hono, store: Store) => void
  engine?: Engine
  now?: () => Date
  /** Close on SIGINT/SIGTERM (default true); the handlers are removed again by `close()`. */
  handleSignals?: boolean
  /** Interface to listen on (default: every interface). */
  hostname?: string
}

export interface RunningServer {
  url: string
  store: Store
  close(): Promise<void>
}

/** How long in-flight requests get to finish on shutdown before connections are cut. */
const SHUTDOWN_GRACE_MS = 5_000

export async function startServer(config: ServiceConfig, options: StartServerOptions = {}): Promise<RunningServer> {
  const store = await openStore(storeOptionsFrom(config))
  let server: Server | undefined
  let integrations: Integrations | undefined
  try {
    const now = options.now ?? (() => new Date())
    await ensureEnvTokens(store, config, now())
    integrations = await startIntegrations(config, store, now)
    const mount = options.mount
    const app = createApp({
      store,
      engine: options.engine ?? createEngine(),
      config,
      now,
      integrations,
      mount: mount && ((app) => mount(app, store)),
    })
    server = await listen(app, config.port, options.hostname)
  } catch (error) {
    await integrations?.close()
    await store.close()
    throw error
  }
  const started = integrations

  const { port } = server.address() as AddressInfo
  const listening = server
  let closing: Promise<void> | undefined
  const onSignal = (signal: NodeJS.Signals) => {
    console.log(`[service] ${signal} received, shutting down`)
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('[service] shutdown failed:', error)
        process.exit(1)
      },
    )
  }
  const close = () => {
    closing ??= (async () => {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => listening.closeAllConnections(), SHUTDOWN_GRACE_MS)
        force.unref()
        listening.close(() => {
          clearTimeout(force)
          resolve()
        })
        listening.closeIdleConnections()
      })
      await started.close()
      await store.close()
    })()
    return closing
  }
  if (options.handleSignals !== false) {
    process.on('SIGINT', onSignal)
    process.on('SIGTERM', onSignal)
  }
  return { url: `http://localhost:${port}`, store, close }
}

/**
 * The credentials key (from CREDENTIALS_KEY or made once in DATA_DIR) and what uses it. Stored
 * credentials this key cannot open are a warning now and a log entry when a block needs them.
 */
async function startIntegrations(config: ServiceConfig, store: Store, now: () => Date): Promise<Integrations> {
  const loaded = await loadCredentialsKey(config)
  if (loaded.source === 'generated') {
    console.log(`[service] No CREDENTIALS_KEY set: made one in ${loaded.file} (keep it with the data; every process sharing this database needs the same key).`)
  }
  const integrations = createIntegrations({ config, store, now, key: loaded.key })
  const unreadable = await integrations.vault.countUnreadable()
  if (unreadable > 0) {
    console.warn(
      `[service] WARNING: ${unreadable} stored credential(s) were encrypted with another key than this CREDENTIALS_KEY and cannot be used until the original key is restored or they are entered again.`,
    )
  }
  return integrations
}

function listen(app: Hono, port: number, hostname?: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname }, () => resolve(server as Server)) as Server
    server.once('error', reject)
  })
}

async function main(): Promise<void> {
  const config = loadConfig()
  const running = await startServer(config)
  const where = config.databaseUrl ? `PostgreSQL (schema ${config.databaseSchema})` : `PGlite in ${config.dataDir}`
  console.log(`Flow service listening on ${running.url} — data: ${where}`)
  if (!config.secretToken) {
    console.log('No FLOW_SECRET_TOKEN set: create one with `npm run flows -- token create --kind secret`.')
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  })
}
