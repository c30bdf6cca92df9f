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
import { type ChildProcess, fork } from 'node:child_process'
import { readdir, stat } from 'node:fs/promises'
import { setPriority } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { ATTACK_CONNECTIONS, ATTACKS, type Flows, type Tally } from './abuse-attacks'
import { benchFlow, uploadFlow } from './bench-flow'
import { percentiles, sequentialLatencies } from './load'
import { type DatabaseKind, databaseUrl, withService } from './service-process'

/** Quiet and attacked samples alternate in short rounds, so changes in the machine's load weigh on both alike. */
const ROUNDS = 6
const SAMPLES_PER_ROUND = 25
/** How long an attack runs before the quiet tenant is measured under it. */
const RAMP_MS = 1_500
/** The quiet tenant's visitors: each startChat from a visitor of its own, as on a real site. */
let quietVisitors = 0
const quietVisitor = () => `192.0.2.${(quietVisitors++ % 250) + 1}`

const ATTACKER = fileURLToPath(new URL('./abuse-attacker.ts', import.meta.url))

/**
 * The attacking client, in a process of its own at the lowest CPU priority: it stands for other
 * machines, so it takes only the CPU that the service, its database and the quiet tenant's client
 * leave. The service still answers every request it sends, which the tally counts.
 */
class Attacker {
  private constructor(private readonly child: ChildProcess) {}

  static async start(index: number, url: string, flows: Flows): Promise<Attacker> {
    const child = fork(ATTACKER, [String(index), url, JSON.stringify(flows)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    if (child.pid !== undefined) setPriority(child.pid, 19)
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve())
      child.once('exit', (code) => reject(new Error(`the attacking client exited (${code}) before it was ready`)))
    })
    return new Attacker(child)
  }

  attack(): void {
    this.child.send('start')
  }

  /** Stops the attack; resolves with what it got. */
  stop(): Promise<Tally> {
    const tally = new Promise<Tally>((resolve) => this.child.once('message', (message) => resolve(message as Tally)))
    this.child.send('stop')
    return tally
  }

  close(): void {
    this.child.send('exit')
  }
}

const add = (into: Tally, from: Tally) => {
  for (const [status, count] of Object.entries(from.statuses)) into.statuses[Number(status)] = (into.statuses[Number(status)] ?? 0) + count
  into.storedBytes += from.storedBytes
}

const summary = (tally: Tally) =>
  Object.entries(tally.statuses)
    .map(([status, count]) => [Number(status), count] as const)
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
  for (const [index, attack] of ATTACKS.entries()) {
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
        const attacker = await Attacker.start(index, url, flows as Flows)
        const tally: Tally = { statuses: {}, storedBytes: 0 }
        const quiet: number[] = []
        const attacked: number[] = []
        let attackMs = 0
        try {
          for (let round = 0; round < ROUNDS; round++) {
            quiet.push(...(await sequentialLatencies(startQuiet, SAMPLES_PER_ROUND)))
            const began = performance.now()
            attacker.attack()
            await new Promise((resolve) => setTimeout(resolve, RAMP_MS))
            attacked.push(...(await sequentialLatencies(startQuiet, SAMPLES_PER_ROUND)))
            add(tally, await attacker.stop())
            attackMs += performance.now() - began
          }
        } finally {
          attacker.close()
        }
        const requests = Object.values(tally.statuses).reduce((a, b) => a + b, 0)
        const [q, a] = [percentiles(quiet), percentiles(attacked)]
        const failed = quietFailures > 0 ? ` (${quietFailures} of its startChats failed)` : ''
        const used = (await bytesUnder(join(dataDir, 'uploads'))) + (await bytesUnder(join(dataDir, 'uploads-incoming')))
        return (
          `| ${label} | ${attack.name} | ${q.p50} / ${q.p99} | ${a.p50} / ${a.p99}${failed} | ${(a.p50 / q.p50).toFixed(2)}× | ` +
          `${Math.round(requests / (attackMs / 1000))}/s: ${summary(tally)} | ${(tally.storedBytes / 2 ** 20).toFixed(0)} MiB accepted, ${(used / 2 ** 20).toFixed(0)} MiB on disk at the end |`
        )
      },
    )
    lines.push(line)
    console.error(line)
  }
  return lines
}

export const ABUSE_TABLE_HEAD = [
  `| database | attack (${ATTACK_CONNECTIONS} connections) | quiet p50 / p99 ms | attacked p50 / p99 ms | p50 ratio | attacker’s requests | stored |`,
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
