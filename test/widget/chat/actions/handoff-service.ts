import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { EventSource as NodeEventSource, fetch as nodeFetch } from 'undici'
import { formatEvent } from '../../../../src/protocol/event-stream'
import type { Agent, HandoffEvent, HandoffStatus } from '../../../../src/protocol/handoff'
import type { ChatStepResult } from '../../../../src/protocol/index'
import type { EventSourceConstructor } from '../../../../src/widget/transport/handoff-feed'
import type { ChatEndpoint } from '../../../../src/widget/transport/index'

/**
 * The visitor's side of a handoff as the flow service answers it (protocol/handoff.ts), for one
 * session, on a real HTTP server on loopback: events numbered from 1, a stream that replays what
 * came after `Last-Event-ID` (or `after`), the long poll, messages stored once per idempotency
 * key, typing and leaving. What the tests do to it (drop streams, refuse them, fail writes) is
 * what proxies and networks do to the real one.
 */
export async function startHandoffService(options: { sessionId?: string } = {}) {
  const sessionId = options.sessionId ?? 's1'
  const base = `/v1/sessions/${sessionId}/handoff`
  const events: HandoffEvent[] = []
  let status: HandoffStatus = 'waiting'
  const streams = new Set<ServerResponse>()
  const polls = new Set<() => void>()
  const byKey = new Map<string, HandoffEvent>()
  const requests: Array<{ method: string; path: string; lastEventId?: string; idempotencyKey?: string; body?: unknown }> = []
  const typing: boolean[] = []
  const behaviour = {
    /** `ok`; `not-a-stream`: answered as JSON (a proxy that rewrites it); `gone`: 404 with the error body. */
    stream: 'ok' as 'ok' | 'not-a-stream' | 'gone',
    /** Writes of messages answered 503 before one is taken. */
    failMessages: 0,
    /** Polls answered 503 before one is answered. */
    failPolls: 0,
    /** The step `leave` continues with. */
    afterLeave: { messages: [{ id: 'bye', type: 'text', content: { plainText: 'Maybe next time.' } }] } as ChatStepResult,
  }

  const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'Content-Type, Idempotency-Key' }
  const json = (response: ServerResponse, code: number, body?: unknown) => {
    response.writeHead(code, { ...cors, 'Content-Type': 'application/json' })
    response.end(body === undefined ? undefined : JSON.stringify(body))
  }
  const after = (seq: number) => events.filter((event) => event.seq > seq)

  const store = (event: Omit<HandoffEvent, 'seq' | 'at'>): HandoffEvent => {
    const stored = { ...event, seq: events.length + 1, at: new Date().toISOString() } as HandoffEvent
    events.push(stored)
    if (stored.type === 'status') status = stored.status
    for (const stream of streams) stream.write(formatEvent(stored.type, stored, stored.seq))
    for (const wake of [...polls]) wake()
    return stored
  }

  const readBody = async (request: IncomingMessage) => {
    let text = ''
    for await (const chunk of request) text += chunk
    return text ? JSON.parse(text) : undefined
  }

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost')
    const body = request.method === 'POST' ? await readBody(request) : undefined
    requests.push({
      method: request.method ?? '',
      path: url.pathname + url.search,
      lastEventId: request.headers['last-event-id'] as string | undefined,
      idempotencyKey: request.headers['idempotency-key'] as string | undefined,
      body,
    })
    if (request.method === 'OPTIONS') {
      response.writeHead(204, { ...cors, 'Access-Control-Allow-Methods': 'GET, POST' })
      return void response.end()
    }
    if (!url.pathname.startsWith(base)) return json(response, 404, { error: { code: 'session_not_found', message: 'No such session' } })
    const path = url.pathname.slice(base.length)
    if (path === '/events' && url.searchParams.get('poll') === '1') {
      if (behaviour.failPolls > 0) {
        behaviour.failPolls--
        return json(response, 503, { error: { code: 'unavailable', message: 'Busy' } })
      }
      const seq = Number(url.searchParams.get('after') ?? 0)
      const hold = Number(url.searchParams.get('timeoutSeconds') ?? 0)
      if (after(seq).length === 0 && hold > 0) {
        await new Promise<void>((resolve) => {
          const wake = () => {
            polls.delete(wake)
            clearTimeout(timer)
            resolve()
          }
          const timer = setTimeout(wake, Math.min(hold * 1000, 2_000))
          polls.add(wake)
          request.on('close', wake)
        })
      }
      return json(response, 200, { status, events: after(seq) })
    }
    if (path === '/events') {
      if (behaviour.stream === 'gone') return json(response, 404, { error: { code: 'session_not_found', message: 'No such session' } })
      if (behaviour.stream === 'not-a-stream') return json(response, 200, { status, events: [] })
      const seq = Number(request.headers['last-event-id'] ?? url.searchParams.get('after') ?? 0)
      response.writeHead(200, { ...cors, 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' })
      // Reconnect quickly: these tests drop streams on purpose.
      response.write('retry: 20\n: open\n\n')
      for (const event of after(seq)) response.write(formatEvent(event.type, event, event.seq))
      streams.add(response)
      request.on('close', () => streams.delete(response))
      return
    }
    if (path === '/messages' && request.method === 'POST') {
      const key = String(request.headers['idempotency-key'] ?? '')
      const text = (body as { text?: unknown } | undefined)?.text
      if (!key || typeof text !== 'string')
        return json(response, 400, { error: { code: 'invalid_body', message: 'A message needs text and a key' } })
      const known = byKey.get(key) ?? store({ type: 'message', author: 'visitor', text })
      byKey.set(key, known)
      if (behaviour.failMessages > 0) {
        // Stored, and the answer lost on the way: the client cannot know, and sends it again.
        behaviour.failMessages--
        return json(response, 503, { error: { code: 'unavailable', message: 'Busy' } })
      }
      return json(response, 201, known)
    }
    if (path === '/typing' && request.method === 'POST') {
      typing.push((body as { typing: boolean }).typing)
      return json(response, 204)
    }
    if (path === '/leave' && request.method === 'POST') {
      store({ type: 'status', status: 'left' })
      store({ type: 'continued', step: behaviour.afterLeave })
      return json(response, 204)
    }
    return json(response, 404, { error: { code: 'not_found', message: 'No such route' } })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    url,
    events,
    requests,
    typing,
    behaviour,
    /** The chat endpoint a widget uses to reach this service (Node's fetch: the page's is happy-dom's). */
    endpoint: { chatApi: url, fetch: nodeFetch as unknown as ChatEndpoint['fetch'], timeoutMs: 5_000 } satisfies ChatEndpoint,
    /** Open streams now. */
    get streams() {
      return streams.size
    },
    claim: (agent: Agent) => store({ type: 'status', status: 'live', agent }),
    say: (agent: Agent, text: string) => store({ type: 'message', author: 'agent', text, agent }),
    note: (text: string) => store({ type: 'message', author: 'system', text }),
    typingNow(agent: Agent, on = true) {
      for (const stream of streams) stream.write(formatEvent('typing', { author: 'agent', typing: on, agent }))
    },
    end: (step: ChatStepResult) => {
      store({ type: 'status', status: 'ended' })
      return store({ type: 'continued', step })
    },
    /** Drops every open stream, as a network or a proxy would. */
    drop() {
      for (const stream of streams) stream.socket?.destroy()
      streams.clear()
    },
    async close() {
      for (const stream of streams) stream.end()
      for (const wake of [...polls]) wake()
      server.closeAllConnections()
      server.close()
      await once(server, 'close').catch(() => {})
    },
  }
}

/** The browser's EventSource, as Node provides it (happy-dom has none); the same interface, typed apart. */
export const EventSource = NodeEventSource as unknown as EventSourceConstructor
