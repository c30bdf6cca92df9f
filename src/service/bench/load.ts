/**
 * Load generation for `npm run bench:service`, in the bench's own process (the targets run in
 * theirs). Asserts nothing: it measures and the bench prints.
 */
import autocannon from 'autocannon'

export interface Figures {
  requestsPerSecond: number
  p50: number
  p99: number
  /** Connection errors and timeouts plus non-2xx answers: anything but a clean 200. */
  failures: number
}

/** A typical step result (two text bubbles and a text input): what the floors answer with. */
export const FIXED_STEP_BODY = JSON.stringify({
  messages: [
    { id: 'm1', type: 'text', content: { richText: [{ type: 'p', children: [{ text: 'Thanks!' }] }], plainText: 'Thanks!' } },
    { id: 'm2', type: 'text', content: { richText: [{ type: 'p', children: [{ text: 'Anything else?' }] }], plainText: 'Anything else?' } },
  ],
  input: { id: 'i1', type: 'text input', options: { labels: { placeholder: 'Type your answer…', button: 'Send' } } },
  progress: 50,
})

/** Sessions the minimal floor answers into (one per request, at random). */
export const MINIMAL_SESSIONS = 1_000

type Requests = autocannon.Request[]
type Context = Record<string, unknown>

/** Runs a short warm-up (JIT, connection pools, prepared statements), then the measured run. */
export async function measure(url: string, requests: Requests, connections: number, seconds: number): Promise<Figures> {
  await autocannon({ url, connections, duration: Math.min(3, seconds), requests })
  const result = await autocannon({ url, connections, duration: seconds, requests })
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.errors + result.timeouts + result.non2xx,
  }
}

let visitors = 0
/** Each connection is a visitor of its own behind the (trusted) proxy, as on a real site. */
const visitor = (context: Context) => (context.visitor ??= `198.51.${(++visitors >> 8) & 255}.${visitors & 255}`) as string

const jsonPost = (context: Context, body: string) => ({
  method: 'POST' as const,
  body,
  headers: { 'content-type': 'application/json', 'x-forwarded-for': visitor(context) },
})

/** Each connection repeats: start a chat, answer it once. Both requests count. */
export function chatRequests(flowId: string): Requests {
  return [
    {
      setupRequest: (request, context) => ({ ...request, ...jsonPost(context as Context, '{}'), path: `/v1/flows/${flowId}/startChat` }),
      onResponse: (status, body, context) => {
        if (status === 200) (context as Context).sessionId = (JSON.parse(body) as { sessionId: string }).sessionId
      },
    },
    {
      setupRequest: (request, context) => ({
        ...request,
        ...jsonPost(context as Context, JSON.stringify({ message: 'Ada' })),
        path: `/v1/sessions/${String((context as Context).sessionId)}/continueChat`,
      }),
    },
  ]
}

/** The bare floor: any POST. */
export const bareRequests = (): Requests => [{ method: 'POST', path: '/', body: JSON.stringify({ message: 'Ada' }) }]

/** The minimal floor: an answer to one of its sessions, picked at random. */
export function minimalRequests(sessions: number): Requests {
  return [
    {
      setupRequest: (request) => ({
        ...request,
        method: 'POST',
        body: JSON.stringify({ message: 'Ada' }),
        path: `/sessions/s${1 + Math.floor(Math.random() * sessions)}/answer`,
      }),
    },
  ]
}

/** Latencies of `count` calls made one after the other, in ms. */
export async function sequentialLatencies(call: () => Promise<void>, count: number): Promise<number[]> {
  const samples: number[] = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    await call()
    samples.push(performance.now() - started)
  }
  return samples
}

export function percentiles(samples: readonly number[]): { p50: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 10) / 10
  return { p50: at(0.5), p99: at(0.99) }
}
