import { Agent, createServer, type IncomingMessage, request, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** How often each fault happens, as a share of requests (0…1); the rest pass untouched. */
export interface FaultRates {
  /** The request never reaches a service: the client's connection is cut. */
  dropRequest: number
  /** The service answers, but the client's connection is cut before the answer reaches it. */
  dropResponse: number
  /** The proxy answers 503 itself, as an overloaded load balancer does. */
  unavailable: number
  /** The request waits up to `slowMs` before it is passed on. */
  slow: number
  slowMs: number
}

export const SOAK_FAULTS: FaultRates = { dropRequest: 0.04, dropResponse: 0.04, unavailable: 0.03, slow: 0.05, slowMs: 800 }

export interface FaultCounts {
  passed: number
  droppedRequests: number
  droppedResponses: number
  unavailable: number
  slowed: number
}

export interface FaultingProxy {
  url: string
  counts: FaultCounts
  close(): Promise<void>
}

/**
 * A load balancer with bad days, on loopback: hands requests to `upstreams` in turn and, by a
 * seeded draw per request (the same run faults the same requests), drops the request, drops the
 * service's answer after the service acted on it, answers 503 itself or passes it on late. The
 * client's own `X-Forwarded-For` goes through, so each visitor keeps an address of its own.
 */
export async function startFaultingProxy(upstreams: string[], faults: FaultRates, seed = 1): Promise<FaultingProxy> {
  const random = seededRandom(seed)
  const agent = new Agent({ keepAlive: true, maxSockets: 256 })
  const counts: FaultCounts = { passed: 0, droppedRequests: 0, droppedResponses: 0, unavailable: 0, slowed: 0 }
  let next = 0

  const server = createServer((req, res) => {
    const draw = random()
    const upstream = new URL(upstreams[next++ % upstreams.length]!)
    let threshold = faults.dropRequest
    if (draw < threshold) {
      counts.droppedRequests++
      return void req.socket.destroy()
    }
    threshold += faults.unavailable
    if (draw < threshold) {
      counts.unavailable++
      req.resume()
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' })
      return void res.end(JSON.stringify({ error: { code: 'unavailable', message: 'The proxy has no service to send this to.' } }))
    }
    threshold += faults.dropResponse
    const dropResponse = draw < threshold
    threshold += faults.slow
    const delay = !dropResponse && draw < threshold ? Math.floor(random() * faults.slowMs) : 0
    if (dropResponse) counts.droppedResponses++
    else if (delay > 0) counts.slowed++
    else counts.passed++
    setTimeout(() => forward(req, res, upstream, dropResponse), delay)
  })

  const forward = (req: IncomingMessage, res: ServerResponse, upstream: URL, dropResponse: boolean) => {
    const outgoing = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent },
      (answer) => {
        if (dropResponse) {
          // Read the whole answer (the service finished its work), then cut the visitor off.
          answer.resume()
          answer.once('end', () => req.socket.destroy())
          return
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      },
    )
    // A service that died mid-request: the visitor sees its connection cut, as behind a real balancer.
    outgoing.once('error', () => req.socket.destroy())
    req.pipe(outgoing)
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    async close() {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
      agent.destroy()
    },
  }
}

/** A small seeded generator (mulberry32): the same seed draws the same faults. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}
