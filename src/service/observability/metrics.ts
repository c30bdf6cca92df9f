import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'

/**
 * What the service counts, in one registry per process, exposed at `/metrics` in the Prometheus
 * text format (routes/metrics.ts; with WORKERS > 1 summed over the processes, see
 * cluster-metrics.ts). Each part of the service records its own: the request middleware, the chat
 * steps, the sandbox, the outbound guard, the AI streams and the database pool. Labels take few
 * values: a route's pattern (never its path), a status, a kind, an outcome.
 */
export const registry = new Registry()

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120]
const registers = [registry]

export const metrics = {
  requests: new Counter({
    name: 'flow_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  }),
  requestSeconds: new Histogram({
    name: 'flow_http_request_duration_seconds',
    help: 'Time from a request to its response headers, by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: SECONDS,
    registers,
  }),
  chatSteps: new Counter({
    name: 'flow_chat_steps_total',
    help: 'Conversation steps the engine ran, by kind (start, message, webhook, stream) and outcome (ok or the error code)',
    labelNames: ['kind', 'outcome'] as const,
    registers,
  }),
  chatStepSeconds: new Histogram({
    name: 'flow_chat_step_duration_seconds',
    help: "Time the engine took for a step (flow code, outside calls and e-mails included; the step's reads and writes not)",
    labelNames: ['kind'] as const,
    buckets: SECONDS,
    registers,
  }),
  sandboxRuns: new Counter({
    name: 'flow_sandbox_runs_total',
    help: 'Runs of flow code in the sandbox, by outcome (ok, error, timeout, out-of-memory, …)',
    labelNames: ['outcome'] as const,
    registers,
  }),
  outboundCalls: new Counter({
    name: 'flow_outbound_calls_total',
    help: "Outgoing HTTP calls of flows and AI blocks, by outcome: the answer's status class (2xx, 4xx, …) or why it failed (refused, timeout, network, limit, …)",
    labelNames: ['outcome'] as const,
    registers,
  }),
  aiStreams: new Counter({
    name: 'flow_ai_streams_total',
    help: 'AI answers streamed from a provider, by outcome (done, cut at the byte limit, failed)',
    labelNames: ['outcome'] as const,
    registers,
  }),
  retentionDeleted: new Counter({
    name: 'flow_retention_deleted_total',
    help: 'What the retention job deleted, by kind (results with everything they hold, files, outbox e-mails)',
    labelNames: ['kind'] as const,
    registers,
  }),
  retentionRuns: new Counter({
    name: 'flow_retention_runs_total',
    help: 'Runs of the retention job, by outcome (done, busy: another process held it, lost: its lease was taken, failed)',
    labelNames: ['outcome'] as const,
    registers,
  }),
  aiStreamsActive: new Gauge({
    name: 'flow_ai_streams_active',
    help: 'AI answers being streamed from a provider now',
    registers,
  }),
}

/** How a connection pool is used at the moment it is asked. */
export interface PoolUse {
  total: number
  idle: number
  waiting: number
  max: number
}

const pools = new Set<() => PoolUse>()

/** Reports a database pool's use until the returned function is called (the pool closed). */
export function watchPool(use: () => PoolUse): () => void {
  pools.add(use)
  return () => void pools.delete(use)
}

const sum = (pick: (use: PoolUse) => number) => [...pools].reduce((total, use) => total + pick(use()), 0)

new Gauge({
  name: 'flow_db_pool_connections',
  help: 'PostgreSQL connections of the pool, by state (in_use, idle); none with the embedded database',
  labelNames: ['state'] as const,
  registers,
  collect() {
    const idle = sum((use) => use.idle)
    this.set({ state: 'in_use' }, sum((use) => use.total) - idle)
    this.set({ state: 'idle' }, idle)
  },
})
new Gauge({
  name: 'flow_db_pool_max_connections',
  help: 'The most connections the PostgreSQL pool opens',
  registers,
  collect() {
    this.set(sum((use) => use.max))
  },
})
new Gauge({
  name: 'flow_db_pool_waiting',
  help: 'Queries waiting for a free PostgreSQL connection',
  registers,
  collect() {
    this.set(sum((use) => use.waiting))
  },
})

let counting = false

/**
 * Turns counting on, with the process's own figures (CPU, memory, event loop delay, …): done once
 * by the app when it serves `/metrics` (METRICS_TOKEN set). Without a reader the figures would be
 * work for nothing, and the per-request ones are not: measured with `npm run bench:service`, the
 * request and step counters and the process's figures together cost a chat request about 7 % of
 * its CPU. The rare events (sandbox runs, outgoing calls, AI answers) are counted either way.
 */
export function countMetrics(): void {
  if (counting) return
  counting = true
  collectDefaultMetrics({ register: registry })
}

/** Whether the per-request figures are being counted (see `countMetrics`). */
export const countingMetrics = (): boolean => counting
