import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { newToken } from '../../../src/service/ids'
import { openPgDatabase } from '../../../src/service/store/pg-database'
import { aiFlow } from '../helpers/ai-flows'
import { databaseUrl, dropSchema, freshSchema } from '../helpers/database'
import { type HttpTestServer, startHttpTestServer } from '../helpers/http-test-server'
import type { LogLine } from '../helpers/logs'
import { type OpenAiTestServer, startOpenAiTestServer } from '../helpers/openai-test-server'
import { MAIN, startServiceProcess } from '../helpers/service-process'
import { SMTP_PASSWORD, type SmtpTestServer, startSmtpTestServer } from '../helpers/smtp-test-server'

/**
 * The service's log as an operator collects it: the service started as in production
 * (`main.ts`, NODE_ENV=production, its output a pipe), used with every kind of secret it holds
 * (its tokens, the credentials key, an AI provider's key, an SMTP password, the metrics token, a
 * key a flow sends in a header, stored credentials), and with wrong ones. Every line it writes
 * must be JSON with its level and time, and none may hold a secret or a stack trace.
 */
const SECRETS = {
  secretToken: newToken('secret'),
  publishableToken: newToken('publishable'),
  credentialsKey: randomBytes(32).toString('hex'),
  openAiKey: `sk-live-${randomBytes(12).toString('hex')}`,
  metricsToken: `metrics-${randomBytes(16).toString('hex')}`,
  flowHeaderKey: `key-${randomBytes(12).toString('hex')}`,
  storedApiKey: `sk-stored-${randomBytes(12).toString('hex')}`,
  smtpPassword: SMTP_PASSWORD,
  wrongToken: newToken('secret'),
  wrongMetricsToken: `metrics-${randomBytes(16).toString('hex')}`,
}

let http: HttpTestServer
let ai: OpenAiTestServer
let smtp: SmtpTestServer
const schema = freshSchema()
const directories: string[] = []

beforeAll(async () => {
  ;[http, ai, smtp] = await Promise.all([startHttpTestServer(), startOpenAiTestServer(), startSmtpTestServer()])
})
afterAll(async () => {
  await Promise.all([http.close(), ai.close(), smtp.close()])
  for (const directory of directories) await rm(directory, { recursive: true, force: true })
  if (databaseUrl) {
    const pg = openPgDatabase(databaseUrl)
    await dropSchema(pg, schema)
    await pg.close()
  }
})

/** Starts the service as `npm run serve` does, its output a pipe; resolves once it listens. */
const startService = (env: Record<string, string>) =>
  startServiceProcess({ ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema } : {}), ...env })

/** Asks a name, sends it to a server with a key in a header, sends an e-mail, asks an AI. */
function flowUsingSecrets() {
  const flow = aiFlow()
  const work = flow.groups[1]!.blocks as unknown[]
  work.unshift(
    {
      id: 'call',
      type: 'Webhook',
      options: {
        webhook: {
          url: `${http.origin}/echo`,
          method: 'POST',
          headers: [{ id: 'h', key: 'Authorization', value: `Bearer ${SECRETS.flowHeaderKey}` }],
        },
        responseVariableMapping: [],
      },
    },
    { id: 'mail', type: 'Email', options: { recipients: ['ada@example.com'], subject: 'Hello', body: 'Hello {{Msg}}' } },
  )
  return flow
}

describe("the service's log", () => {
  it('is JSON lines without a secret or a stack, from a run that uses every kind of secret', async () => {
    ai.script({ parts: ['Bonjour'] })
    const service = await startService({
      NODE_ENV: 'production',
      LOG_LEVEL: 'debug',
      TRUST_PROXY: '1',
      FLOW_SECRET_TOKEN: SECRETS.secretToken,
      FLOW_PUBLISHABLE_TOKEN: SECRETS.publishableToken,
      CREDENTIALS_KEY: SECRETS.credentialsKey,
      OPENAI_API_KEY: SECRETS.openAiKey,
      OPENAI_BASE_URL: ai.baseUrl,
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
      SMTP_URL: `smtp://flows:${SECRETS.smtpPassword}@127.0.0.1:${smtp.port}`,
      METRICS_TOKEN: SECRETS.metricsToken,
    })
    const call = async (path: string, init: { method?: string; token?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
      const response = await fetch(`${service.url}${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers: {
          'content-type': 'application/json',
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
          ...init.headers,
        },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      })
      return { status: response.status, body: (await response.text()) as string }
    }
    let run: { stdout: string; stderr: string }
    try {
      const imported = JSON.parse(
        (await call('/v1/flows/import', { token: SECRETS.secretToken, body: { workspaceId: 'demo', flow: flowUsingSecrets() } })).body,
      )
      const flowId: string = imported.flow.id
      expect((await call(`/v1/flows/${flowId}/publish`, { method: 'POST', token: SECRETS.secretToken })).status).toBe(200)
      const stored = { type: 'openai', id: 'team-openai', data: { apiKey: SECRETS.storedApiKey } }
      expect((await call('/v1/credentials', { token: SECRETS.secretToken, body: stored })).status).toBe(200)
      expect((await call(`/v1/flows/${flowId}/publishedFlow`, { token: SECRETS.publishableToken })).status).toBe(200)

      const start = JSON.parse(
        (await call(`/v1/flows/${flowId}/startChat`, { body: {}, headers: { 'x-forwarded-for': '203.0.113.5' } })).body,
      )
      const answer = await call(`/v1/sessions/${start.sessionId}/continueChat`, {
        body: { message: 'Ada' },
        headers: { 'x-forwarded-for': '203.0.113.5' },
      })
      expect(answer.status).toBe(200)
      expect(http.hits('/echo')).toHaveLength(1)
      expect(smtp.received).toHaveLength(1)
      expect(ai.received.at(-1)?.authorization).toBe(`Bearer ${SECRETS.openAiKey}`)

      // Wrong secrets, and secrets where they do not belong.
      expect((await call(`/v1/flows/${flowId}`, { token: SECRETS.wrongToken })).status).toBe(401)
      expect((await call(`/v1/flows/${flowId}`, { headers: { authorization: `Bearer ${SECRETS.openAiKey}` } })).status).toBe(401)
      expect(
        (await call(`/v1/flows/${flowId}`, { token: SECRETS.secretToken, headers: { 'x-request-id': SECRETS.publishableToken } })).status,
      ).toBe(200)
      expect((await call('/metrics', { token: SECRETS.wrongMetricsToken })).status).toBe(401)
      expect((await call('/metrics', { token: SECRETS.metricsToken })).status).toBe(200)
    } finally {
      run = await service.stop()
    }

    const lines = run.stdout.trimEnd().split('\n')
    const parsed = lines.map((line) => JSON.parse(line) as LogLine)
    for (const line of parsed) {
      expect(line).toEqual(expect.objectContaining({ level: expect.any(String), time: expect.any(String), msg: expect.any(String) }))
    }
    // One access line per request made.
    expect(parsed.filter((line) => line.msg === 'request')).toHaveLength(11)
    expect(parsed.some((line) => line.msg.startsWith('Flow service listening on'))).toBe(true)
    expect(parsed.some((line) => line.msg === 'shutting down')).toBe(true)

    const everything = run.stdout + run.stderr
    for (const [name, secret] of Object.entries(SECRETS)) expect(everything.includes(secret), `${name} is in the log`).toBe(false)
    expect(everything).not.toMatch(/"stack"|\n\s+at /)
  }, 60_000)

  it("writes a failure to start as one line with the error's code and digest, no stack", async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const { port } = blocker.address() as AddressInfo
    try {
      const dataDir = await mkdtemp(join(tmpdir(), 'flow-service-log-'))
      directories.push(dataDir)
      const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
        env: {
          PATH: process.env.PATH,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          NODE_ENV: 'production',
          FLOW_SECRET_TOKEN: SECRETS.secretToken,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let output = ''
      child.stdout.on('data', (chunk: Buffer) => (output += chunk))
      child.stderr.on('data', (chunk: Buffer) => (output += chunk))
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
      expect(code).toBe(1)
      const fatal = output
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as LogLine)
        .filter((line) => line.level === 'fatal')
      expect(fatal).toEqual([
        expect.objectContaining({
          err: { type: 'Error', code: 'EADDRINUSE', message: expect.stringMatching(/EADDRINUSE/), digest: expect.any(String) },
        }),
      ])
      expect(output).not.toMatch(/"stack"|\n\s+at /)
      expect(output).not.toContain(SECRETS.secretToken)
    } finally {
      await new Promise((resolve) => blocker.close(resolve))
    }
  }, 60_000)

  it('is readable lines when LOG_FORMAT=pretty', async () => {
    const service = await startService({ LOG_FORMAT: 'pretty', LOG_LEVEL: 'debug' })
    let run: { stdout: string; stderr: string }
    try {
      expect((await fetch(`${service.url}/v1/health/live`)).status).toBe(200)
    } finally {
      run = await service.stop()
    }
    const lines = run.stdout.trimEnd().split('\n')
    for (const line of lines) expect(line).toMatch(/^\d\d:\d\d:\d\d\.\d{3} (INFO |DEBUG|WARN ) \S/)
    expect(lines.some((line) => /DEBUG request {2}requestId=\S+ {2}method=GET {2}route=\/v1\/health\/live {2}status=200/.test(line))).toBe(
      true,
    )
  }, 60_000)
})
