/**
 * `npm run bench:abuse` (and the end of `npm run bench:service`): another tenant's startChat
 * latency, quiet and while an anonymous client attacks through the surfaces that need no token,
 * side by side. The service runs with its default limits and quotas, behind one trusted proxy
 * (the client's address is what the proxy says), on the embedded database and, with
 * DATABASE_URL, on PostgreSQL.
 *
 * The attacks: QR codes of distinct 1,000-character texts (each a slow picture to draw), and
 * uploads of 10 MB files to conversations the client never finishes; each from one address, then
 * from many addresses of one IPv6 /64; and, as a floor, the same flood of requests refused at once
 * (what any flood costs, whatever it asks for). Quiet and attacked samples alternate over six
 * rounds. Asserts nothing: it prints.
 */
import { randomBytes } from 'node:crypto'
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { benchFlow, uploadFlow } from './bench-flow'
import { percentiles, sequentialLatencies } from './load'
import { type DatabaseKind, databaseUrl, withService } from './service-process'

/** Quiet and attacked samples alternate in short rounds, so changes in the machine's load weigh on both alike. */
const ROUNDS = 6
const SAMPLES_PER_ROUND = 25
/** How long an attack runs before the quiet tenant is measured under it. */
const RAMP_MS = 1_500
const ATTACK_CONNECTIONS = 8
const UPLOAD_BYTES = 10_000_000
/** The quiet tenant's visitors: each startChat from a visitor of its own, as on a real site. */
let quietVisitors = 0
const quietVisitor = () => `192.0.2.${(quietVisitors++ % 250) + 1}`

interface Tally {
  statuses: Map<number, number>
  storedBytes: number
}

interface Attack {
  name: string
  /** One request of connection `connection`, its `n`th; returns the status. */
  request(url: string, connection: number, n: number, flows: Flows, tally: Tally): Promise<number>
}

type Flows = Record<'quiet' | 'files', string>

const oneAddress = () => '198.51.100.66'
/** A new address of one /64 for every request. */
const oneNetwork = (connection: number, n: number) => `2001:db8:66:1:${(connection + 1).toString(16)}::${(n + 1).toString(16)}`

let texts = 0
const qrAttack = (name: string, address: (connection: number, n: number) => string, length = 1_000): Attack => ({
  name,
  async request(url, connection, n) {
    const text = `${++texts}:${'x'.repeat(1_000)}`.slice(0, length)
    const response = await fetch(`${url}/v1/qr-code?text=${encodeURIComponent(text)}`, {
      headers: { 'x-forwarded-for': address(connection, n) },
    })
    await response.arrayBuffer()
    return response.status
  },
})

const BODY = randomBytes(UPLOAD_BYTES)
/** Each connection's conversation, started anew when its file question is full or refused. */
const sessions = new Map<number, string>()
const uploadAttack = (name: string, address: (connection: number, n: number) => string): Attack => ({
  name,
  async request(url, connection, n, flows, tally) {
    const from = { 'x-forwarded-for': address(connection, n) }
    let session = sessions.get(connection)
    if (!session) {
      const started = await fetch(`${url}/v1/flows/${flows.files}/startChat`, {
        method: 'POST',
        headers: { ...from, 'content-type': 'application/json' },
        body: '{}',
      })
      const body = (await started.json()) as { sessionId?: string }
      if (!body.sessionId) return started.status
      session = body.sessionId
      sessions.set(connection, session)
    }
    const response = await fetch(`${url}/v1/sessions/${session}/uploads?name=scan-${n}.bin`, {
      method: 'POST',
      headers: { ...from, 'content-type': 'application/octet-stream' },
      body: BODY,
    })
    await response.arrayBuffer()
    if (response.status === 201) tally.storedBytes += UPLOAD_BYTES
    else sessions.delete(connection)
    return response.status
  },
})

const ATTACKS: Attack[] = [
  // The floor: the same flood, every request refused (past its rate limit, or an empty text), nothing drawn.
  qrAttack('floor: the same flood refused without drawing (QR codes of an empty text), one address', oneAddress, 0),
  qrAttack('QR codes of distinct 1,000-character texts, one address', oneAddress),
  qrAttack('QR codes of distinct 1,000-character texts, a new address of one /64 each', oneNetwork),
  uploadAttack('10 MB uploads never sent, one address', oneAddress),
  uploadAttack('10 MB uploads never sent, a new address of one /64 each', oneNetwork),
]

/** Runs `attack` on ATTACK_CONNECTIONS connections until `stop` is called. */
function launch(url: string, attack: Attack, flows: Flows, tally: Tally): () => Promise<void> {
  let stopped = false
  const connections = Array.from({ length: ATTACK_CONNECTIONS }, async (_, connection) => {
    for (let n = 0; !stopped; n++) {
      let status: number
      try {
        status = await attack.request(url, connection, n, flows, tally)
      } catch {
        status = 0
      }
      tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1)
      // A refused client tries again at once: refusals must stay cheap.
    }
  })
  return async () => {
    stopped = true
    await Promise.all(connections)
  }
}

const summary = (tally: Tally) =>
  [...tally.statuses]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${count}× ${status === 0 ? 'failed' : status}`)
    .join(', ')

/** What the files under `dir` take. */
async function bytesUnder(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  const sizes = await Promise.all(entries.filter((e) => e.isFile()).map((e) => stat(join(e.parentPath, e.name)).then((s) => s.size)))
  return sizes.reduce((a, b) => a + b, 0)
}

export async function benchAbuse(kind: DatabaseKind, label: string): Promise<string[]> {
  const lines: string[] = []
  for (const attack of ATTACKS) {
    sessions.clear()
    const line = await withService(
      kind,
      {
        name: 'abuse',
        // The service's own limits: only the proxy is configured.
        env: { PORT: '0', WORKERS: '1', TRUST_PROXY: '1' },
        flows: { quiet: { workspace: 'quiet', flow: benchFlow }, files: { workspace: 'files', flow: uploadFlow } },
      },
      async (url, flows, dataDir) => {
        let quietFailures = 0
        // A failure (an answer but 200, a connection cut) counts, with the time it took.
        const startQuiet = async () => {
          try {
            const response = await fetch(`${url}/v1/flows/${flows.quiet}/startChat`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-forwarded-for': quietVisitor() },
              body: '{}',
            })
            await response.arrayBuffer()
            if (response.status !== 200) quietFailures++
          } catch {
            quietFailures++
          }
        }
        await sequentialLatencies(startQuiet, 20) // warm-up
        const tally: Tally = { statuses: new Map(), storedBytes: 0 }
        const quiet: number[] = []
        const attacked: number[] = []
        for (let round = 0; round < ROUNDS; round++) {
          quiet.push(...(await sequentialLatencies(startQuiet, SAMPLES_PER_ROUND)))
          const stop = launch(url, attack, flows, tally)
          await new Promise((resolve) => setTimeout(resolve, RAMP_MS))
          attacked.push(...(await sequentialLatencies(startQuiet, SAMPLES_PER_ROUND)))
          await stop()
        }
        const [q, a] = [percentiles(quiet), percentiles(attacked)]
        const failed = quietFailures > 0 ? ` (${quietFailures} of its startChats failed)` : ''
        const used = (await bytesUnder(join(dataDir, 'uploads'))) + (await bytesUnder(join(dataDir, 'uploads-incoming')))
        return (
          `| ${label} | ${attack.name} | ${q.p50} / ${q.p99} | ${a.p50} / ${a.p99}${failed} | ${(a.p50 / q.p50).toFixed(2)}× | ` +
          `${summary(tally)} | ${(tally.storedBytes / 2 ** 20).toFixed(0)} MiB accepted, ${(used / 2 ** 20).toFixed(0)} MiB on disk at the end |`
        )
      },
    )
    lines.push(line)
    console.error(line)
  }
  return lines
}

export const ABUSE_TABLE_HEAD = [
  '| database | attack (8 connections) | quiet p50 / p99 ms | attacked p50 / p99 ms | p50 ratio | attacker’s answers | stored |',
  '|---|---|---:|---:|---:|---|---|',
]

async function main(): Promise<void> {
  const lines = [...ABUSE_TABLE_HEAD]
  for (const kind of databaseUrl ? (['embedded', 'postgres'] as const) : (['embedded'] as const)) {
    lines.push(...(await benchAbuse(kind, kind === 'embedded' ? 'embedded PGlite' : 'PostgreSQL server')))
  }
  console.log(`\nAnother tenant's startChat, quiet and under an anonymous attack (${ROUNDS} rounds of ${SAMPLES_PER_ROUND} each)\n`)
  console.log(lines.join('\n'))
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
