import cluster, { type Worker } from 'node:cluster'
import { AggregatorRegistry } from 'prom-client'
import { newId } from '../ids'
import { registry } from './metrics'

/**
 * With WORKERS > 1 the processes share one port, so a scrape of `/metrics` reaches whichever
 * process the connection went to. That process asks the primary, which gathers every worker's
 * registry (prom-client's AggregatorRegistry) and answers with the sums: counters and histograms
 * add up, and gauges (pool connections, streams under way) are totals over the processes. One
 * process alone answers with its own registry.
 */
const ASK = 'flow-service:metrics'
const TIMEOUT_MS = 6_000

interface Ask {
  type: typeof ASK
  id: string
}

interface Answer extends Ask {
  text?: string
  error?: string
}

const isAsk = (message: unknown): message is Ask => (message as Ask | null)?.type === ASK

/** In the primary: answers the workers' requests for the metrics of them all. */
export function answerMetricsRequests(): () => void {
  const aggregator = new AggregatorRegistry()
  const onMessage = (worker: Worker, message: unknown) => {
    if (!isAsk(message)) return
    const answer = (fields: Partial<Answer>) => worker.isConnected() && worker.send({ type: ASK, id: message.id, ...fields })
    aggregator.clusterMetrics().then(
      (text) => answer({ text }),
      (error: unknown) => answer({ error: error instanceof Error ? error.message : String(error) }),
    )
  }
  cluster.on('message', onMessage)
  return () => void cluster.off('message', onMessage)
}

/** In a worker: lets the primary read this process's registry when any worker is scraped. */
export function reportMetricsToPrimary(): void {
  AggregatorRegistry.setRegistries([registry])
  // Constructing one installs prom-client's listener for the primary's requests.
  new AggregatorRegistry()
}

/** The text `/metrics` answers: every process's figures summed in a cluster, else this process's. */
export function exposedMetrics(): Promise<string> {
  return cluster.isWorker ? askPrimary() : registry.metrics()
}

export const METRICS_CONTENT_TYPE = registry.contentType

function askPrimary(): Promise<string> {
  const id = newId()
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer)
      process.off('message', onMessage)
    }
    const onMessage = (message: unknown) => {
      if (!isAsk(message) || message.id !== id) return
      done()
      const { text, error } = message as Answer
      if (text === undefined) reject(new Error(`The primary process could not gather the metrics: ${error ?? 'no answer'}`))
      else resolve(text)
    }
    const timer = setTimeout(() => {
      done()
      reject(new Error('The primary process did not send the metrics in time'))
    }, TIMEOUT_MS)
    process.on('message', onMessage)
    process.send!({ type: ASK, id } satisfies Ask)
  })
}
