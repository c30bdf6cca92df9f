/**
 * `npm start`: builds the widget and the command line, starts the reference flow service with the demo pages on one
 * port, imports and publishes the demo flows and the shared real flows, and prints where to go.
 */
import { existsSync, mkdirSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { build } from 'vite'
import { CLI_COMMAND } from '../src/service/cli/invocation'
import { forkWorkers, isClusterWorker, onPrimaryMessage } from '../src/service/cluster'
import { loadConfig, type ServiceConfig } from '../src/service/config'
import { newToken } from '../src/service/ids'
import { serviceUrl, startServer } from '../src/service/main'
import { startBanner } from './site/banner'
import { mountDemoSite } from './site/routes'
import { listFlowFiles, type SeededFlow, seedFlows } from './site/seed'

const repoRoot = resolve(import.meta.dirname, '..')
const WORKSPACE = 'demo'

/**
 * Tokens for the demo workspace: from the environment when set; otherwise made once and kept in
 * the data directory (readable by the owner only), so restarts keep working pages and scripts.
 */
async function demoTokens(dataDir: string): Promise<{ secret: string; publishable: string }> {
  const env = { secret: process.env.FLOW_SECRET_TOKEN, publishable: process.env.FLOW_PUBLISHABLE_TOKEN }
  const file = join(dataDir, 'demo-tokens.json')
  const saved = existsSync(file)
    ? (JSON.parse(await readFile(file, 'utf8')) as { secret: string; publishable: string })
    : { secret: newToken('secret'), publishable: newToken('publishable') }
  if (!existsSync(file)) await writeFile(file, JSON.stringify(saved, null, 2), { mode: 0o600 })
  return { secret: env.secret || saved.secret, publishable: env.publishable || saved.publishable }
}

/** The service with the demo site; `flows` is filled in once the primary has seeded them. */
async function serveDemo(config: ServiceConfig, tokens: { publishable: string; secret: string }) {
  let flows: SeededFlow[] = []
  const server = await startServer(config, {
    mount: (app) =>
      mountDemoSite(app, {
        assetsDir: join(repoRoot, 'demo/assets'),
        flows: () => flows,
        context: (requestUrl) => ({ apiHost: new URL(requestUrl).origin, publishableToken: tokens.publishable }),
        secretToken: tokens.secret,
        aiConfigured: config.ai.defaults.openai !== undefined,
      }),
  })
  // With WORKERS > 1 the primary seeds the flows and tells every worker about them.
  onPrimaryMessage((message) => {
    const seeded = (message as { demoFlows?: SeededFlow[] }).demoFlows
    if (seeded) flows = seeded
  })
  return { url: server.url, setFlows: (seeded: SeededFlow[]) => (flows = seeded) }
}

async function main() {
  const base = loadConfig()
  mkdirSync(base.dataDir, { recursive: true })
  const tokens = await demoTokens(base.dataDir)
  const config = { ...base, secretToken: tokens.secret, publishableToken: tokens.publishable }
  if (isClusterWorker()) return void (await serveDemo(config, tokens))

  console.log('Building the widget and the command line…')
  await build({ root: repoRoot, configFile: join(repoRoot, 'vite.config.ts'), logLevel: 'warn' })
  // The service's build holds the command line (`npx flow-service`), which works beside the demo.
  await build({ root: repoRoot, configFile: join(repoRoot, 'vite.config.ts'), logLevel: 'warn', build: { ssr: true } })

  let service: { url: string; setFlows: (flows: SeededFlow[]) => void }
  if (config.workers > 1) {
    // WORKERS=N: N processes on one port over PostgreSQL (loadConfig refuses it without DATABASE_URL).
    const workers = await forkWorkers(config.workers)
    const stop = () => workers.close().then(() => process.exit(0))
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    service = { url: serviceUrl(config.host, workers.port), setFlows: (flows) => workers.broadcast({ demoFlows: flows }) }
  } else {
    service = await serveDemo(config, tokens)
  }
  const flows = await seedFlows({
    baseUrl: service.url,
    secretToken: tokens.secret,
    workspaceId: WORKSPACE,
    stateFile: join(config.databaseUrl ? repoRoot : config.dataDir, 'demo-seed.json'),
    files: listFlowFiles([
      { dir: join(repoRoot, 'demo/flows'), source: 'demo' },
      { dir: join(repoRoot, '../shared/flows'), source: 'shared' },
    ]),
  })
  service.setFlows(flows)

  console.log(
    startBanner({
      url: service.url,
      workers: config.workers,
      smtpConfigured: Boolean(config.smtpUrl),
      workspace: WORKSPACE,
      tokens,
      data: config.databaseUrl ? 'PostgreSQL server (DATABASE_URL)' : resolve(config.dataDir),
      commandLine: `${CLI_COMMAND} list${config.databaseUrl ? '   (with the same DATABASE_URL)' : ''}`,
      flows,
    }),
  )
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
