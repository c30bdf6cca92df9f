import { once } from 'node:events'
import { createServer, type RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fetch as nodeFetch } from 'undici'
import { afterEach, describe, expect, it } from 'vitest'
import { formatEvent } from '../../../src/protocol/event-stream'
import { streamEvents } from '../../../src/widget/transport/handoff-feed'
import type { ChatEndpoint } from '../../../src/widget/transport/index'
import { EventSource } from '../chat/actions/handoff-service'

const servers: Array<ReturnType<typeof createServer>> = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    server.close()
  }
})

/** A server on loopback answering every request with `handler`; the chat endpoint to reach it. */
async function serve(handler: RequestListener): Promise<ChatEndpoint> {
  const server = createServer(handler)
  servers.push(server)
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return { chatApi: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, fetch: nodeFetch as never, timeoutMs: 1_000 }
}

const listener = (seen: unknown[]) => ({
  event(event: { type: string }) {
    seen.push(event)
    return event.type === 'continued'
  },
  typing: (event: unknown) => void seen.push(event),
})

describe("a handoff's event stream", () => {
  it('counts as failed, never opened, when the response never comes (a proxy holding it back)', async () => {
    const endpoint = await serve(() => {})
    const result = await streamEvents(endpoint, 's1', 0, listener([]), new AbortController().signal, EventSource, 200)
    expect(result).toEqual({ done: false, opened: false })
  })

  it('counts as failed at once when the service refuses it', async () => {
    const endpoint = await serve((_request, response) => {
      response.writeHead(429, { 'Content-Type': 'application/json' })
      response.end('{"error":{"code":"too_many_streams","message":"Too many"}}')
    })
    const result = await streamEvents(endpoint, 's1', 0, listener([]), new AbortController().signal, EventSource, 5_000)
    expect(result).toEqual({ done: false, opened: false })
  })

  it('hands over events after the one asked for, typing included, until the flow goes on', async () => {
    const paths: string[] = []
    const endpoint = await serve((request, response) => {
      paths.push(request.url ?? '')
      response.writeHead(200, { 'Content-Type': 'text/event-stream' })
      response.write(': hello\n\n')
      response.write(formatEvent('typing', { author: 'agent', typing: true }))
      response.write(formatEvent('message', { seq: 5, at: 'now', type: 'message', author: 'agent', text: 'Hi' }, 5))
      response.write(formatEvent('message', { seq: 6, at: 'now', type: 'reaction' }, 6))
      response.write(formatEvent('continued', { seq: 7, at: 'now', type: 'continued', step: {} }, 7))
    })
    const seen: unknown[] = []
    const result = await streamEvents(endpoint, 's 1', 4, listener(seen), new AbortController().signal, EventSource, 5_000)
    expect(result).toEqual({ done: true, opened: true })
    expect(paths).toEqual(['/v1/sessions/s%201/handoff/events?after=4'])
    // An event this widget cannot read is skipped; the others arrive in order.
    expect(seen).toEqual([
      { author: 'agent', typing: true },
      { seq: 5, at: 'now', type: 'message', author: 'agent', text: 'Hi' },
      { seq: 7, at: 'now', type: 'continued', step: {} },
    ])
  })

  it('stops, rejecting, when the chat goes away', async () => {
    const endpoint = await serve((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/event-stream' })
      response.write(': open\n\n')
    })
    const controller = new AbortController()
    const result = streamEvents(endpoint, 's1', 0, listener([]), controller.signal, EventSource, 5_000)
    setTimeout(() => controller.abort(new Error('removed')), 100)
    await expect(result).rejects.toThrow('removed')
  })
})
