import { createEventStreamParser, type ServerSentEvent } from '../../../src/protocol/event-stream'
import { importOverHttp, publishOverHttp } from './flows'
import { type CallResult, type TestService, WORKSPACE } from './service'

/**
 * Handed-over conversations in tests: a flow that reaches a `handoff` block, agent tokens, and a
 * reader of the live streams as a client reads them (fetch and the protocol's event-stream parser).
 */

export function handoffFlow(options: Record<string, unknown> = {}): Record<string, any> {
  const text = (id: string, value: string) => ({
    id,
    type: 'text',
    content: { richText: [{ type: 'p', children: [{ text: value }] }] },
  })
  return {
    version: '6',
    name: 'Support',
    events: [{ id: 'start', type: 'start', outgoingEdgeId: 'to-ask' }],
    groups: [
      {
        id: 'ask',
        title: 'Ask',
        blocks: [
          text('hello', 'Hello! Let me find someone.'),
          {
            id: 'person',
            type: 'handoff',
            outgoingEdgeId: 'after-person',
            options: { waitingMessage: 'Waiting for a person…', variableIds: ['vEmail'], ...options },
            items: [{ id: 'nobody', outgoingEdgeId: 'after-nobody' }],
          },
        ],
      },
      { id: 'done', title: 'Done', blocks: [text('thanks', 'Thanks, we will write to {{Email}}.')] },
      {
        id: 'missed',
        title: 'Missed',
        blocks: [
          text('sorry', 'No one is free right now. Your e-mail?'),
          { id: 'email', type: 'email input', options: { variableId: 'vEmail' } },
        ],
      },
    ],
    edges: [
      { id: 'to-ask', from: { eventId: 'start' }, to: { groupId: 'ask' } },
      { id: 'after-person', from: { blockId: 'person' }, to: { groupId: 'done' } },
      { id: 'after-nobody', from: { blockId: 'person', itemId: 'nobody' }, to: { groupId: 'missed' } },
    ],
    variables: [{ id: 'vEmail', name: 'Email' }],
  }
}

/** Imports and publishes the flow; answers its id. */
export async function publishHandoffFlow(svc: TestService, flow = handoffFlow()): Promise<string> {
  const imported = await importOverHttp(svc, flow)
  await publishOverHttp(svc, imported.id)
  return imported.id as string
}

/** Starts a conversation that reaches the handoff: its session and the handoff's id. */
export async function startHandedOver(
  svc: TestService,
  flowId: string,
): Promise<{ sessionId: string; resultId: string; handoffId: string; start: CallResult }> {
  const start = await svc.call('POST', `/v1/flows/${flowId}/startChat`, { json: {} })
  if (start.status !== 200) throw new Error(`startChat answered ${start.status}: ${start.text}`)
  const action = (start.body.clientSideActions ?? []).find((candidate: { type: string }) => candidate.type === 'handoff')
  if (!action) throw new Error(`the flow did not hand over: ${start.text}`)
  return { sessionId: start.body.sessionId, resultId: start.body.resultId, handoffId: action.handoff.handoffId, start }
}

/** A new agent token of the workspace, made through the tokens API. */
export async function agentToken(
  svc: TestService,
  name: string,
  workspaceToken = svc.tokens.secret,
): Promise<{ id: string; value: string }> {
  const made = await svc.call('POST', '/v1/tokens', {
    token: workspaceToken,
    json: { kind: 'agent', agent: { name, avatarUrl: `https://example.com/${name}.png` } },
  })
  if (made.status !== 200) throw new Error(`creating an agent token answered ${made.status}: ${made.text}`)
  return { id: made.body.token.id, value: made.body.value }
}

export const visitorPath = (sessionId: string, what: 'events' | 'messages' | 'typing' | 'leave') =>
  `/v1/sessions/${encodeURIComponent(sessionId)}/handoff/${what}`

export { WORKSPACE }

/** An open event stream, read as the widget or the console reads it. */
export interface OpenStream {
  status: number
  headers: Headers
  /** Reads until `count` events satisfying `wanted` came (all events are kept in `events`). */
  take(count: number, wanted?: (event: ServerSentEvent) => boolean, timeoutMs?: number): Promise<ServerSentEvent[]>
  /** Everything the stream wrote until it ended (for a stream the service ends). */
  rest(timeoutMs?: number): Promise<ServerSentEvent[]>
  readonly events: ServerSentEvent[]
  readonly lastEventId: string | undefined
  close(): void
}

/** Something that answers requests: an app in process, or a running service (`overHttp`). */
type Requester = { app: { request(path: string, init: RequestInit): Response | Promise<Response> } }

/** A running service, reached over HTTP. */
export const overHttp = (base: string): Requester => ({ app: { request: (path, init) => fetch(`${base}${path}`, init) } })

/**
 * Calls a running service over HTTP as a client would (JSON in and out): `token` as the bearer,
 * `headers` beside it, `fetch` to choose the connection (a fresh one per call, say).
 */
export async function callOverHttp(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string>; fetch?: typeof fetch } = {},
): Promise<{ status: number; body: any }> {
  const response = await (options.fetch ?? fetch)(`${base}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : undefined }
}

export async function openStream(svc: Requester, path: string, headers: Record<string, string> = {}): Promise<OpenStream> {
  const abort = new AbortController()
  const response = await svc.app.request(path, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal })
  const parser = createEventStreamParser()
  const events: ServerSentEvent[] = []
  const reader = response.body?.getReader()
  let ended = response.body === null
  const readMore = async (deadline: number): Promise<boolean> => {
    if (!reader || ended) return false
    const left = deadline - Date.now()
    if (left <= 0) return false
    let timer: NodeJS.Timeout | undefined
    const chunk = await Promise.race([
      reader.read(),
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), left)
      }),
    ])
    clearTimeout(timer)
    if (chunk === 'timeout') return false
    if (chunk.done) {
      ended = true
      return false
    }
    events.push(...parser.push(chunk.value))
    return true
  }
  let seen = 0
  return {
    status: response.status,
    headers: response.headers,
    events,
    get lastEventId() {
      return parser.lastEventId
    },
    async take(count, wanted = () => true, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs
      const found: ServerSentEvent[] = []
      for (;;) {
        while (seen < events.length && found.length < count) {
          const event = events[seen++]!
          if (wanted(event)) found.push(event)
        }
        if (found.length >= count) return found
        if (!(await readMore(deadline))) throw new Error(`expected ${count} events, got ${found.length}: ${JSON.stringify(events)}`)
      }
    },
    async rest(timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs
      while (await readMore(deadline));
      if (!ended) throw new Error('the stream did not end')
      const remaining = events.slice(seen)
      seen = events.length
      return remaining
    },
    close() {
      abort.abort()
      void reader?.cancel().catch(() => undefined)
    },
  }
}

export const data = (event: ServerSentEvent): any => JSON.parse(event.data)
