import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createEventStreamParser } from '../../protocol/event-stream'
import { newToken } from '../ids'
import { benchFlow } from './bench-flow'
import { percentiles } from './load'
import { freshDatabase, seed, spawnTarget } from './service-process'

/**
 * The live part of handed-over conversations, on PostgreSQL with two service processes: the
 * visitors' streams held by one, the person answering on the other. `CONVERSATIONS` live
 * conversations stay open; the figure is agent → visitor delivery (from the person's POST to the
 * event arriving on the visitor's stream, across the processes), next to one plain continueChat
 * round trip measured in the same run, and the memory one open stream costs its process.
 */

const CONVERSATIONS = 200
const MESSAGES = 400
const MAIN = join(import.meta.dirname, '../main.ts')

const handoffFlow = {
  version: '6',
  name: 'Bench handoff',
  events: [{ id: 'start', type: 'start', outgoingEdgeId: 'e' }],
  groups: [{ id: 'g', title: 'G', blocks: [{ id: 'h', type: 'handoff', options: { timeoutSeconds: 86_400 } }] }],
  edges: [{ id: 'e', from: { eventId: 'start' }, to: { groupId: 'g' } }],
}

async function rssBytes(pid: number | undefined): Promise<number> {
  if (pid === undefined) return Number.NaN
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) * 1024
}

export async function benchHandoffs(): Promise<string> {
  const database = await freshDatabase('postgres', 'handoff')
  const secret = newToken('secret')
  const flows = await seed(database.store, {
    live: { workspace: 'demo', flow: handoffFlow },
    plain: { workspace: 'demo', flow: benchFlow },
  })
  const env = {
    ...database.env,
    PORT: '0',
    FLOW_SECRET_TOKEN: secret,
    TRUST_PROXY: '1',
    RATE_LIMIT_CHAT_PER_MINUTE: '10000000',
    RATE_LIMIT_CHAT_BURST: '10000000',
    RATE_LIMIT_MANAGEMENT_PER_MINUTE: '10000000',
    RATE_LIMIT_MANAGEMENT_BURST: '10000000',
    HANDOFF_STREAMS_PER_ADDRESS: '100000',
    HANDOFF_MESSAGES_PER_MINUTE: '0',
  }
  const visitors = await spawnTarget(MAIN, [], env)
  const team = await spawnTarget(MAIN, [], env)
  const aborts: AbortController[] = []
  try {
    const post = (base: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

    // A plain continueChat round trip, on the visitors' process.
    const plain: number[] = []
    for (let i = 0; i < 60; i++) {
      const started = (await (await post(visitors.url, `/v1/flows/${flows.plain}/startChat`, {})).json()) as { sessionId: string }
      const before = performance.now()
      await (await post(visitors.url, `/v1/sessions/${started.sessionId}/continueChat`, { message: 'Ada' })).arrayBuffer()
      if (i >= 10) plain.push(performance.now() - before)
    }

    const waiting = new Map<string, (at: number) => void>()
    const rssBefore = await rssBytes(visitors.pid)
    const handoffs: string[] = []
    for (let i = 0; i < CONVERSATIONS; i++) {
      const started = (await (await post(visitors.url, `/v1/flows/${flows.live}/startChat`, {})).json()) as {
        sessionId: string
        clientSideActions: { handoff: { handoffId: string } }[]
      }
      const handoffId = started.clientSideActions[0]!.handoff.handoffId
      handoffs.push(handoffId)
      const abort = new AbortController()
      aborts.push(abort)
      const response = await fetch(`${visitors.url}/v1/sessions/${started.sessionId}/handoff/events`, { signal: abort.signal })
      const parser = createEventStreamParser()
      void (async () => {
        for await (const chunk of response.body!) {
          for (const event of parser.push(chunk as Uint8Array)) {
            if (event.type !== 'message') continue
            const text = (JSON.parse(event.data) as { text: string }).text
            waiting.get(text)?.(performance.now())
          }
        }
      })().catch(() => undefined)
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    const rssAfter = await rssBytes(visitors.pid)
    const auth = { authorization: `Bearer ${secret}` }
    for (const id of handoffs) await (await post(team.url, `/v1/handoffs/${id}/claim`, {}, auth)).arrayBuffer()

    const delivery: number[] = []
    for (let i = 0; i < MESSAGES; i++) {
      const text = `message ${i}`
      const arrived = new Promise<number>((resolve) => waiting.set(text, resolve))
      const before = performance.now()
      const sent = await post(team.url, `/v1/handoffs/${handoffs[i % CONVERSATIONS]}/messages`, { text }, auth)
      await sent.arrayBuffer()
      delivery.push((await arrived) - before)
      waiting.delete(text)
    }
    const [live, round] = [percentiles(delivery), percentiles(plain)]
    const perStream = Math.round((rssAfter - rssBefore) / CONVERSATIONS / 1024)
    return (
      `PostgreSQL server, two processes, ${CONVERSATIONS} live conversations: agent → visitor delivery p50/p99 ${live.p50}/${live.p99} ms ` +
      `(${MESSAGES} messages, the person on one process, the visitor's stream on the other); ` +
      `one continueChat round trip p50/p99 ${round.p50}/${round.p99} ms in the same run; ` +
      `one open visitor stream costs its process about ${perStream} KiB (resident memory, ${CONVERSATIONS} streams)`
    )
  } finally {
    for (const abort of aborts) abort.abort()
    await Promise.all([visitors.stop(), team.stop()])
    await database.cleanup()
  }
}
