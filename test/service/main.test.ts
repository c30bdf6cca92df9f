import { mkdtemp, rm, stat } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadConfig, type ServiceConfig } from '../../src/service/config'
import { newToken } from '../../src/service/ids'
import { startServer } from '../../src/service/main'
import { openPgDatabase } from '../../src/service/store/pg-database'
import { databaseUrl, dropSchema, freshSchema } from './helpers/database'
import { greetingFlow } from './helpers/flows'
import { captureLogs } from './helpers/logs'

let dataDir: string
let schema: string
let config: ServiceConfig
const secret = newToken('secret')
const publishable = newToken('publishable')

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'flow-main-'))
  schema = freshSchema()
  config = loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    DATABASE_SCHEMA: schema,
    FLOW_SECRET_TOKEN: secret,
    FLOW_PUBLISHABLE_TOKEN: publishable,
    RATE_LIMIT_CHAT_PER_MINUTE: '1',
    RATE_LIMIT_CHAT_BURST: '2',
    LOG_LEVEL: 'warn',
  })
})
afterEach(async () => {
  if (databaseUrl) {
    const pg = openPgDatabase(databaseUrl)
    await dropSchema(pg, schema)
    await pg.close()
  }
  await rm(dataDir, { recursive: true, force: true })
})

const json = (token: string, body?: unknown): RequestInit => ({
  method: body === undefined ? 'GET' : 'POST',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  body: body === undefined ? undefined : JSON.stringify(body),
})

describe('startServer', () => {
  it('serves the API over HTTP with the environment tokens, and mounts extra routes', async () => {
    let flowId = ''
    const server = await startServer(config, {
      handleSignals: false,
      mount: (app) => {
        app.get('/hello', (c) => c.text('hi'))
      },
    })
    try {
      expect(server.url).toMatch(/^http:\/\/localhost:\d+$/)
      expect(await (await fetch(`${server.url}/hello`)).text()).toBe('hi')
      const imported = await fetch(`${server.url}/v1/flows/import`, json(secret, { workspaceId: 'demo', flow: greetingFlow() }))
      expect(imported.status).toBe(200)
      const { flow } = (await imported.json()) as { flow: { id: string; publicId: string } }
      flowId = flow.id
      await fetch(`${server.url}/v1/flows/${flow.id}/publish`, { ...json(secret), method: 'POST' })
      const published = await fetch(`${server.url}/v1/flows/${flow.publicId}/publishedFlow`, json(publishable))
      expect(published.status).toBe(200)

      // Chat limits key on the socket address here (no proxy trusted): the third start is refused.
      const start = () => fetch(`${server.url}/v1/flows/${flow.id}/startChat`, { method: 'POST' })
      expect((await start()).status).toBe(200)
      expect((await start()).status).toBe(200)
      const limited = await start()
      expect(limited.status).toBe(429)
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    } finally {
      await server.close()
    }
    await expect(fetch(`${server.url}/v1/health`)).rejects.toThrow()

    // A restart on the same data keeps the flows and registers the same tokens only once.
    const again = await startServer(config, { handleSignals: false })
    try {
      expect((await fetch(`${again.url}/v1/flows/${flowId}`, json(secret))).status).toBe(200)
      const tokens = await again.store.tokens.listByWorkspace('demo')
      expect(tokens.map((t) => t.kind).sort()).toEqual(['publishable', 'secret'])
    } finally {
      await again.close()
    }
  })

  it('keeps credentials across restarts with the key it made, and only warns when the key changed', async () => {
    const smtp = { type: 'smtp', id: 'mail', data: { host: 'mail.example.com', port: 587, password: 'pw', from: { email: 'a@b.co' } } }
    const first = await startServer(config, { handleSignals: false })
    try {
      expect((await fetch(`${first.url}/v1/credentials`, json(secret, smtp))).status).toBe(200)
    } finally {
      await first.close()
    }
    const keyFile = join(dataDir, 'credentials.key')
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600)

    const restarted = await startServer(config, { handleSignals: false })
    try {
      const { credential } = (await (await fetch(`${restarted.url}/v1/credentials/mail`, json(secret))).json()) as {
        credential: { data: object }
      }
      expect(credential.data).toMatchObject({ host: 'mail.example.com', password: '••••' })
    } finally {
      await restarted.close()
    }

    const logs = captureLogs()
    const otherKey = await startServer({ ...config, credentialsKey: '77'.repeat(32) }, { handleSignals: false, logTo: logs.destination })
    try {
      expect(
        logs.lines
          .filter((line) => line.level === 'warn')
          .map((line) => line.msg)
          .join('\n'),
      ).toMatch(/1 stored credential\(s\) were encrypted with another key/)
      const listed = await fetch(`${otherKey.url}/v1/credentials`, json(secret))
      expect(listed.status).toBe(200)
      expect(((await listed.json()) as { credentials: unknown[] }).credentials).toEqual([
        expect.objectContaining({ id: 'mail', unreadable: true }),
      ])
    } finally {
      logs.restore()
      await otherKey.close()
    }
  })

  it('refuses to start when the port is taken', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, resolve))
    try {
      const { port } = blocker.address() as AddressInfo
      await expect(startServer({ ...config, port }, { handleSignals: false })).rejects.toThrow(/EADDRINUSE/)
    } finally {
      blocker.close()
    }
  })
})
