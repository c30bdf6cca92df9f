import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_CONFIG } from '../../src/service/config'
import { newToken } from '../../src/service/ids'
import { type RunningServer, startServer } from '../../src/service/main'
import { QUIET_LOG } from '../service/helpers/logs'
import { type CodeBlock, codeBlocks, documents, REPO_ROOT } from './doc-blocks'

/**
 * Every shell block of the documentation, run with bash against a service started here, as a
 * reader pastes it: `https://chat.example.com` is the service's address, `YOUR_SECRET_TOKEN` and
 * `YOUR_PUBLISHABLE_TOKEN` its tokens, `YOUR_METRICS_TOKEN` its METRICS_TOKEN, `YOUR_FLOW_ID` the README's first flow (imported and
 * published by the test). A block must exit 0; when the docs show what it prints (a block marked
 * as its output), the output must match. Only blocks marked `skip` with a reason are left out.
 *
 * Blocks run in a scratch folder inside the project (so `npx flow-service` finds it, as from any
 * of its folders: the built one, `npm test` builds first), with the files the docs ask readers to
 * save; the command line's `DATA_DIR` is the service's, which answers it (as beside `npm start`),
 * never the project's own.
 */

const PLACEHOLDERS = {
  service: 'https://chat.example.com',
  flow: 'YOUR_FLOW_ID',
  publishable: 'YOUR_PUBLISHABLE_TOKEN',
  secret: 'YOUR_SECRET_TOKEN',
  metrics: 'YOUR_METRICS_TOKEN',
} as const

const blocks = documents().flatMap(codeBlocks)
const shellBlocks = blocks.filter((block) => block.lang === 'sh')
const files = blocks.flatMap((block) => (block.instruction?.kind === 'file' ? [{ name: block.instruction.name, code: block.code }] : []))

let server: RunningServer
let origin: string
let work: string
let dataDir: string
const secret = newToken('secret')
const publishable = newToken('publishable')
const metricsToken = randomBytes(24).toString('base64url')
let flowId: string

beforeAll(async () => {
  const cli = resolve(REPO_ROOT, 'build/service/flow-service.mjs')
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first (the docs' command line is the built one)`)
  dataDir = mkdtempSync(join(tmpdir(), 'flow-docs-service-'))
  server = await startServer(
    {
      ...DEFAULT_CONFIG,
      port: 0,
      dataDir,
      secretToken: secret,
      publishableToken: publishable,
      credentialsKey: randomBytes(32).toString('hex'),
      metricsToken,
      log: QUIET_LOG,
    },
    { hostname: '127.0.0.1', handleSignals: false },
  )
  origin = `http://127.0.0.1:${new URL(server.url).port}`

  mkdirSync(resolve(REPO_ROOT, '.tmp'), { recursive: true })
  work = mkdtempSync(resolve(REPO_ROOT, '.tmp', 'docs-shell-'))
  for (const file of files) writeFileSync(join(work, file.name), `${file.code}\n`)

  const first = files.find((file) => file.name === 'first-flow.json')
  if (!first) throw new Error('the README has no flow marked `docs-test: file first-flow.json`')
  const api = async (path: string, body?: unknown) => {
    const response = await fetch(`${origin}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
    return (await response.json()) as { flow: { id: string } }
  }
  flowId = (await api('/v1/flows/import', { workspaceId: 'demo', flow: JSON.parse(first.code) })).flow.id
  await api(`/v1/flows/${flowId}/publish`)
}, 60_000)

afterAll(async () => {
  await server?.close()
  for (const directory of [work, dataDir]) if (directory) rmSync(directory, { recursive: true, force: true })
})

/** A block as a reader runs it after putting in their own values. */
const fillIn = (code: string) =>
  code
    .replaceAll(PLACEHOLDERS.service, origin)
    .replaceAll(PLACEHOLDERS.flow, flowId)
    .replaceAll(PLACEHOLDERS.publishable, publishable)
    .replaceAll(PLACEHOLDERS.secret, secret)
    .replaceAll(PLACEHOLDERS.metrics, metricsToken)

function bash(code: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    // A clean environment: what a reader's shell has, not this test run's settings.
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? work, LANG: 'C.UTF-8', DATA_DIR: dataDir }
    const child = spawn('bash', ['-euo', 'pipefail', '-c', code], { cwd: work, env })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
    child.on('error', fail)
    child.on('close', (status) => done({ status, stdout, stderr }))
  })
}

/** Whether `actual` is what the docs show: `…` in a string stands for anything, objects and lists may hold more. */
function matches(shown: unknown, actual: unknown): boolean {
  if (typeof shown === 'string') {
    if (typeof actual !== 'string') return false
    const pattern = shown
      .split('…')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\s\\S]*')
    return new RegExp(`^${pattern}$`).test(actual)
  }
  if (Array.isArray(shown))
    return Array.isArray(actual) && shown.length <= actual.length && shown.every((item, index) => matches(item, actual[index]))
  if (typeof shown === 'object' && shown !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false
    return Object.entries(shown).every(([key, value]) => key in actual && matches(value, (actual as Record<string, unknown>)[key]))
  }
  return shown === actual
}

function expectOutput(output: CodeBlock, stdout: string) {
  if (output.lang === 'json') {
    let actual: unknown
    expect(() => (actual = JSON.parse(stdout)), `not JSON:\n${stdout}`).not.toThrow()
    expect(matches(JSON.parse(output.code), actual), `the docs show:\n${output.code}\nit printed:\n${stdout}`).toBe(true)
  } else {
    // Text: each line the docs show appears in the output, in order.
    const lines = stdout.split('\n')
    let at = 0
    for (const line of output.code.split('\n').filter((shown) => shown.trim() !== '')) {
      const found = lines.findIndex((printed, index) => index >= at && matches(line.trim(), printed.trim()))
      expect(found, `"${line}" not printed (after line ${at}):\n${stdout}`).toBeGreaterThanOrEqual(0)
      at = found + 1
    }
  }
}

describe('every shell block in the documentation', () => {
  it('are there to run', () => {
    expect(shellBlocks.filter((block) => block.instruction?.kind !== 'skip').length).toBeGreaterThanOrEqual(15)
  })

  for (const block of shellBlocks) {
    if (block.instruction?.kind === 'skip') {
      it.skip(`${block.name} (not run: ${block.instruction.why})`, () => {})
      continue
    }
    it(block.name, async () => {
      const { status, stdout, stderr } = await bash(fillIn(block.code))
      expect(status, `exit ${status}\nstdout:\n${stdout}\nstderr:\n${stderr}`).toBe(0)
      if (block.next) expectOutput(block.next, stdout)
    }, 90_000)
  }

  it('skip a block only with a reason', () => {
    const unexplained = shellBlocks.filter((block) => block.instruction?.kind === 'skip' && block.instruction.why.length < 10)
    expect(unexplained.map((block) => block.name)).toEqual([])
  })
})
