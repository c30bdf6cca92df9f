import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { newToken } from '../../../src/service/ids'
import { openPgDatabase } from '../../../src/service/store/pg-database'
import { greetingFlow } from '../helpers/flows'
import { startHttpTestServer } from '../helpers/http-test-server'
import { startOpenAiTestServer } from '../helpers/openai-test-server'
import { postgresBin, startPostgresServer } from '../helpers/postgres-server'
import { childProcesses, type ServiceProcess, startServiceProcess } from '../helpers/service-process'
import { type FaultCounts, type FaultRates, startFaultingProxy } from './faulting-proxy'
import { soakFlow } from './soak-flow'
import { type VisitOutcome, visit } from './soak-visitor'

export interface SoakOptions {
  conversations: number
  /** Visitors at once. */
  concurrency: number
  /** Worker processes killed with SIGKILL during the run, and PostgreSQL restarts. */
  kills: number
  restarts: number
  faults: FaultRates
  /** A conversation not finished after this is stuck. */
  deadlineMs: number
  seed?: number
  /** Progress lines, as the run goes. */
  say?: (line: string) => void
}

export interface SoakReport {
  conversations: number
  finished: number
  stuck: number
  failed: number
  /** The refusals visitors saw, as they saw them. */
  errors: string[]
  answersSent: number
  /** Sent answers recorded exactly once, in the order sent. */
  recordedOnce: number
  lost: number
  duplicated: number
  /** Answers recorded that no visitor sent. */
  unexpected: number
  retries: number
  startRetries: number
  answerMs: { p50: number; p99: number }
  faults: FaultCounts
  kills: number
  restarts: number
  /** Resident memory (MiB) of the instance nobody kills, after the warm-up and after the run. */
  memory: { before: number; after: number }
  seconds: number
}

const SCHEMA = 'soak'

/**
 * An ordinary bad day for a deployed service, in one run: visitors `concurrency` at a time walk
 * real conversations (choices, text, uploads, an HTTP block, a streamed AI answer) through a
 * faulting load balancer to `WORKERS=2` and a second instance on one PostgreSQL server, while
 * worker processes are killed mid-answer and the database restarts. Then every visitor's answers
 * are checked against what the database recorded.
 */
export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const say = options.say ?? (() => undefined)
  const bin = await postgresBin()
  if (!bin) throw new Error('The soak needs a PostgreSQL server installed (Debian: postgresql).')
  const pg = await startPostgresServer(bin)
  const ai = await startOpenAiTestServer()
  const api = await startHttpTestServer()
  const dataDir = await mkdtemp(join(tmpdir(), 'flow-soak-'))
  const processes: ServiceProcess[] = []
  const began = Date.now()
  try {
    ai.script({ parts: ['Happy', ' to', ' help', ' with', ' that.'] })
    const secret = newToken('secret')
    const env = {
      DATABASE_URL: pg.url,
      DATABASE_SCHEMA: SCHEMA,
      // Uploads on one disk for every process, as on a shared volume.
      DATA_DIR: dataDir,
      FLOW_SECRET_TOKEN: secret,
      TRUST_PROXY: '1',
      OPENAI_API_KEY: 'sk-soak',
      OPENAI_BASE_URL: ai.baseUrl,
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
      CREDENTIALS_KEY: randomBytes(32).toString('hex'),
    }
    say('soak: starting WORKERS=2 and a second instance on a PostgreSQL server of its own')
    const cluster = await startServiceProcess({ ...env, WORKERS: '2' })
    processes.push(cluster)
    const single = await startServiceProcess({ ...env, WORKERS: '1' })
    processes.push(single)
    const flowIds = [await publish(single.url, secret, soakFlow(api.origin)), await publish(single.url, secret, greetingFlow())]
    const proxy = await startFaultingProxy([cluster.url, single.url], options.faults, options.seed)

    const outcomes: VisitOutcome[] = []
    let started = 0
    let done = 0
    const visitor = async () => {
      while (started < options.conversations) {
        const index = started++
        // Three in four walk the long flow, the others the short one.
        outcomes[index] = await visit({ base: proxy.url, flowId: flowIds[index % 4 === 3 ? 1 : 0]!, index, deadlineMs: options.deadlineMs })
        done++
      }
    }
    const warmUp = Math.min(options.concurrency, options.conversations)
    say(`soak: warming up with ${warmUp} conversations`)
    const warmPool = Array.from({ length: warmUp }, async () => {
      const index = started++
      outcomes[index] = await visit({ base: proxy.url, flowId: flowIds[0]!, index, deadlineMs: options.deadlineMs })
      done++
    })
    await Promise.all(warmPool)
    const memoryBefore = await residentMiB(single.pid)

    // The faults at evenly spaced points of the run: kills and restarts interleaved.
    const events: ('kill' | 'restart')[] = []
    for (let i = 0; i < Math.max(options.kills, options.restarts); i++) {
      if (i < options.kills) events.push('kill')
      if (i < options.restarts) events.push('restart')
    }
    let kills = 0
    let restarts = 0
    const chaos = (async () => {
      for (const [i, event] of events.entries()) {
        const at = warmUp + Math.floor(((options.conversations - warmUp) * (i + 1)) / (events.length + 1))
        while (done < at) await new Promise((resolve) => setTimeout(resolve, 50))
        if (event === 'kill') {
          const workers = childProcesses(cluster.pid)
          const victim = workers[kills % workers.length]
          if (victim === undefined) throw new Error('no worker process to kill')
          say(`soak: killing worker ${victim} with SIGKILL after ${done} conversations`)
          process.kill(victim, 'SIGKILL')
          kills++
        } else {
          say(`soak: restarting PostgreSQL after ${done} conversations`)
          await pg.stop()
          await new Promise((resolve) => setTimeout(resolve, 1_000))
          await pg.start()
          restarts++
        }
      }
    })()
    const progress = setInterval(() => say(`soak: ${done} of ${options.conversations} conversations done`), 10_000)
    await Promise.all([...Array.from({ length: options.concurrency }, visitor), chaos]).finally(() => clearInterval(progress))

    // Let the killed workers' leases and the last requests settle before reading memory.
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    const memoryAfter = await residentMiB(single.pid).catch(async () => {
      const { stdout, stderr } = await single.stop()
      const errors = stdout.split('\n').filter((line) => /"level":"(fatal|error)"/.test(line))
      throw new Error(`the instance nobody killed has stopped:\n${[...errors.slice(-5), stderr.slice(-3000)].join('\n')}`)
    })
    const faults = { ...proxy.counts }
    await proxy.close()
    const checked = await checkRecorded(pg.url, outcomes)
    const times = outcomes.flatMap((outcome) => outcome.answerMs).sort((a, b) => a - b)
    return {
      conversations: outcomes.length,
      finished: outcomes.filter((outcome) => outcome.state === 'finished').length,
      stuck: outcomes.filter((outcome) => outcome.state === 'stuck').length,
      failed: outcomes.filter((outcome) => outcome.state === 'failed').length,
      errors: outcomes.flatMap((outcome) => (outcome.error ? [outcome.error] : [])),
      ...checked,
      retries: outcomes.reduce((sum, outcome) => sum + outcome.retries, 0),
      startRetries: outcomes.reduce((sum, outcome) => sum + outcome.startRetries, 0),
      answerMs: { p50: percentile(times, 0.5), p99: percentile(times, 0.99) },
      faults,
      kills,
      restarts,
      memory: { before: memoryBefore, after: memoryAfter },
      seconds: Math.round((Date.now() - began) / 1000),
    }
  } finally {
    await Promise.all(processes.map((process) => process.stop()))
    await Promise.all([ai.close(), api.close()])
    await pg.close()
    await rm(dataDir, { recursive: true, force: true })
  }
}

async function publish(base: string, secret: string, flow: unknown): Promise<string> {
  const headers = { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }
  const imported = await fetch(`${base}/v1/flows/import`, { method: 'POST', headers, body: JSON.stringify({ workspaceId: 'demo', flow }) })
  if (!imported.ok) throw new Error(`import: ${imported.status} ${await imported.text()}`)
  const id = ((await imported.json()) as { flow: { id: string } }).flow.id
  const published = await fetch(`${base}/v1/flows/${id}/publish`, { method: 'POST', headers, body: '{}' })
  if (!published.ok) throw new Error(`publish: ${published.status} ${await published.text()}`)
  return id
}

/** Compares, result by result, what each visitor sent with the answers the database holds. */
async function checkRecorded(url: string, outcomes: VisitOutcome[]) {
  const db = openPgDatabase(url, 2)
  try {
    const ids = outcomes.flatMap((outcome) => (outcome.resultId ? [outcome.resultId] : []))
    const rows = await db.query<{ result_id: string; block_id: string; value: string }>(
      `SELECT result_id, block_id, value FROM ${SCHEMA}.answers WHERE result_id = ANY($1) ORDER BY id`,
      [ids],
    )
    const recorded = new Map<string, string[]>()
    for (const row of rows) recorded.set(row.result_id, [...(recorded.get(row.result_id) ?? []), `${row.block_id}=${row.value}`])
    let answersSent = 0
    let recordedOnce = 0
    let lost = 0
    let duplicated = 0
    let unexpected = 0
    for (const outcome of outcomes) {
      const sent = outcome.answers.map((answer) => `${answer.blockId}=${answer.value}`)
      const held = outcome.resultId ? (recorded.get(outcome.resultId) ?? []) : []
      answersSent += sent.length
      const left = [...held]
      for (const answer of sent) {
        const at = left.indexOf(answer)
        if (at === -1) lost++
        else left.splice(at, 1)
      }
      for (const extra of left) sent.includes(extra) ? duplicated++ : unexpected++
      if (held.length === sent.length && held.every((answer, i) => answer === sent[i])) recordedOnce += sent.length
    }
    return { answersSent, recordedOnce, lost, duplicated, unexpected }
  } finally {
    await db.close()
  }
}

async function residentMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
  return Math.round((kib / 1024) * 10) / 10
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!
}
