import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ReceivedCall {
  headers: Record<string, string | string[] | undefined>
  body: string
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:PORT/hooks` */
  url: string
  calls: ReceivedCall[]
  /** Statuses to answer the next calls with, in order; then 204. */
  answers: number[]
  close(): Promise<void>
}

/**
 * A real HTTP server on loopback receiving webhook calls, answering as the test says; with
 * `neverAnswers`, a receiver that reads each call and never answers it (its connections are cut
 * when it closes).
 */
export async function startWebhookReceiver(options: { neverAnswers?: boolean } = {}): Promise<WebhookReceiver> {
  const calls: ReceivedCall[] = []
  const answers: number[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      calls.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      if (options.neverAnswers) return
      const status = answers.shift() ?? 204
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? '' : 'not now')
    })
  })
  server.keepAliveTimeout = 1_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    calls,
    answers,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
