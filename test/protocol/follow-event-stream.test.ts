import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { ApiError, apiClient } from '../../src/protocol/api-client'
import type { ServerSentEvent } from '../../src/protocol/event-stream'
import { followEventStream, type StreamState, streamRetryDelay } from '../../src/protocol/follow-event-stream'
import type { InboxEvent } from '../../src/protocol/handoff'
import { followInbox } from '../../src/protocol/handoffs-api'

/**
 * Following a Server-Sent Events stream with fetch, against a server on loopback that answers each
 * connection with what the test scripts: resumed from the last event delivered, never from an id
 * whose event a cut stream left unfinished; given up on refusals that will not change.
 */
type Script = (response: ServerResponse, lastEventId: string | undefined) => void
const closers: Array<() => void> = []
afterEach(() => {
  for (const close of closers.splice(0)) close()
})

async function scriptedServer(scripts: Script[]) {
  const seen: Array<{ lastEventId: string | undefined; authorization: string | undefined }> = []
  const server = createServer((request, response) => {
    const lastEventId = request.headers['last-event-id'] as string | undefined
    seen.push({ lastEventId, authorization: request.headers.authorization })
    const script = scripts[seen.length - 1]
    if (script) return script(response, lastEventId)
    response.writeHead(200, { 'Content-Type': 'text/event-stream' })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  closers.push(() => {
    server.closeAllConnections()
    server.close()
  })
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
}

/** Starts an event stream, with what it says first. */
const stream = (response: ServerResponse, first?: string) => {
  response.writeHead(200, { 'Content-Type': 'text/event-stream' })
  if (first) response.write(first)
}
const until = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10))
}
const FAST = { baseDelayMs: 5, maxDelayMs: 20 }

describe('following an event stream', () => {
  it('reconnects after a cut with the id of the last event delivered, not of one cut short', async () => {
    const { origin, seen } = await scriptedServer([
      (response) => {
        stream(response)
        // Event 2's id arrives, its blank line never does: the stream is cut mid-event.
        response.write('id: 1\nevent: note\ndata: one\n\nid: 2\nevent: note\ndata: tw')
        setTimeout(() => response.destroy(), 20)
      },
      (response) => {
        stream(response)
        response.end('id: 2\nevent: note\ndata: two\n\n')
      },
    ])
    const events: ServerSentEvent[] = []
    const follower = followEventStream({
      open: (lastEventId, signal) => fetch(`${origin}/events`, { headers: lastEventId ? { 'Last-Event-ID': lastEventId } : {}, signal }),
      onEvent: (event) => events.push(event),
      backoff: FAST,
    })
    closers.push(() => follower.close())
    await until(() => events.length === 2)
    expect(events.map((event) => event.data)).toEqual(['one', 'two'])
    expect(seen.map((request) => request.lastEventId)).toEqual([undefined, '1'])
    expect(follower.lastEventId).toBe('2')
  })

  it('takes a stream silent past its idle limit as dead and opens another', async () => {
    // The first connection says it is open, then nothing, not even a heartbeat.
    const { origin, seen } = await scriptedServer([
      (response) => stream(response, ': open\n\n'),
      (response) => stream(response, 'id: 7\ndata: x\n\n'),
    ])
    const states: StreamState[] = []
    const events: ServerSentEvent[] = []
    const follower = followEventStream({
      open: (_, signal) => fetch(`${origin}/events`, { signal }),
      onEvent: (event) => events.push(event),
      onState: (state) => states.push(state),
      idleTimeoutMs: 100,
      backoff: FAST,
    })
    closers.push(() => follower.close())
    await until(() => events.length === 1)
    expect(seen).toHaveLength(2)
    expect(states.slice(0, 4)).toEqual(['connecting', 'open', 'waiting', 'connecting'])
  })

  it('waits longer after each failure, with jitter, up to its ceiling', () => {
    const backoff = { baseDelayMs: 1_000, maxDelayMs: 30_000 }
    expect([0, 1, 2, 5, 10].map((attempt) => streamRetryDelay(attempt, backoff, () => 0))).toEqual([500, 1_000, 2_000, 15_000, 15_000])
    expect([0, 1, 2, 5, 10].map((attempt) => streamRetryDelay(attempt, backoff, () => 1))).toEqual([1_000, 2_000, 4_000, 30_000, 30_000])
  })
})

describe("the inbox's stream", () => {
  it('sends the token, parses events with the contract, skips what it does not know, and gives up on a revoked token', async () => {
    const summary = { id: 'h1', flowId: 'f1', flowName: 'Support', resultId: 'r1', status: 'waiting', requestedAt: '2026-11-28T10:00:00Z' }
    const { origin, seen } = await scriptedServer([
      (response) => {
        stream(response)
        response.write(`: heartbeat\n\nid: 1\nevent: handoff\ndata: ${JSON.stringify({ handoff: summary })}\n\n`)
        response.write('id: 2\nevent: future-kind\ndata: {"what":"next year"}\n\n')
        response.end(`id: 3\nevent: typing\ndata: {"handoffId":"h1","typing":true}\n\n`)
      },
      (response) => {
        response.writeHead(401, { 'Content-Type': 'application/json' })
        response.end(JSON.stringify({ error: { code: 'unauthorized', message: 'Unknown or revoked token.' } }))
      },
    ])
    const events: InboxEvent[] = []
    let gaveUp: unknown
    const follower = followInbox(apiClient({ baseUrl: origin, token: () => 'fs_ak_token' }), {
      onEvent: (event) => events.push(event),
      onGiveUp: (error) => (gaveUp = error),
    })
    closers.push(() => follower.close())
    await until(() => gaveUp !== undefined)
    expect(events).toEqual([
      { type: 'handoff', handoff: summary },
      { type: 'typing', handoffId: 'h1', typing: true },
    ])
    expect(seen).toEqual([
      { lastEventId: undefined, authorization: 'Bearer fs_ak_token' },
      { lastEventId: '3', authorization: 'Bearer fs_ak_token' },
    ])
    expect(gaveUp).toBeInstanceOf(ApiError)
    expect((gaveUp as ApiError).status).toBe(401)
  })
})
