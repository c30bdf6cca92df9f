import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { formatEvent } from '../../../src/protocol/event-stream'
import {
  type HandoffDetail,
  type HandoffEvent,
  type HandoffStatus,
  type HandoffSummary,
  handoffAgentsResponseSchema,
  handoffDetailSchema,
  type InboxEvent,
} from '../../../src/protocol/handoff'
import { TOKEN_PREFIXES, type TokenKind } from '../../../src/protocol/management'

/**
 * The service's team API as the contract (src/protocol/handoff.ts) describes it, on loopback: the
 * tokens, the conversations handed to a person, claim (one winner), messages (idempotent),
 * typing, variables, transfer, end, and the inbox's event stream with ids, replay after
 * `Last-Event-ID` and heartbeats. Its answers are checked with the contract's schemas, and the
 * test plays the visitor and the other agents through its methods. The console's tests run
 * against it until the service's own routes land (then the browser test runs the real one).
 */

interface Token {
  id: string
  kind: TokenKind
  value: string
  label: string | null
  avatarUrl?: string
  revoked?: boolean
}

interface Conversation {
  summary: HandoffSummary
  transcript: HandoffDetail['transcript']
  variables: HandoffDetail['variables']
  events: HandoffEvent[]
}

export interface TeamApiServer {
  origin: string
  secret: Token
  agents: Token[]
  /** Every request, in order (method, path, body, headers the tests look at). */
  requests: Array<{ method: string; path: string; body: unknown; lastEventId?: string; idempotencyKey?: string }>
  /** A flow hands a conversation to the team. */
  handOver(flowName: string, detail?: Partial<Pick<Conversation, 'transcript' | 'variables'>>): HandoffSummary
  visitorSays(handoffId: string, text: string): HandoffEvent
  visitorTyping(handoffId: string, typing: boolean): void
  /** The visitor leaves the queue or the conversation (the flow goes on without the person). */
  visitorLeaves(handoffId: string): void
  /** Another person claims it (as `agent`), as if from another console. */
  claimAs(agent: Token, handoffId: string): void
  conversation(handoffId: string): Conversation
  /** The next call to a path ending so is carried out but its answer is lost (the connection cut), as on a flaky network. */
  loseNextAnswer(pathEnd: string): void
  /** Cuts every open inbox stream, as a proxy or a restart would. */
  dropStreams(): void
  /** How many inbox streams are open now. */
  openStreams(): number
  /** Conversations a list answers at once (the service's 50); more go behind `nextCursor`. */
  pageSize: number
  close(): Promise<void>
}

const tokenValue = (kind: TokenKind) => TOKEN_PREFIXES[kind] + randomBytes(32).toString('base64url')

/** The console's page as the service serves it (src/service/routes/admin.ts), for a browser. */
const CONSOLE_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Flow console</title>
<link rel="stylesheet" href="/admin/assets/console.css"><script type="module" src="/admin/assets/console.js"></script></head>
<body><div id="console"></div></body></html>`

export async function startTeamApiServer(
  options: {
    agents?: Array<{ name: string; avatarUrl?: string }>
    /** The console's build (dist/admin) to serve at `/admin`, for a browser test. */
    consoleDir?: string
  } = {},
): Promise<TeamApiServer> {
  let ids = 0
  const newId = (prefix: string) => `${prefix}${++ids}`
  const secret: Token = { id: 'tok-secret', kind: 'secret', value: tokenValue('secret'), label: 'owner' }
  const agents: Token[] = (options.agents ?? [{ name: 'Ada' }, { name: 'Bea' }]).map((agent, index) => ({
    id: `tok-agent-${index + 1}`,
    kind: 'agent',
    value: tokenValue('agent'),
    label: agent.name,
    ...(agent.avatarUrl ? { avatarUrl: agent.avatarUrl } : {}),
  }))
  const tokens: Token[] = [secret, ...agents]
  const conversations = new Map<string, Conversation>()
  /** The inbox's log: a workspace-wide position per stored event (typing has none). */
  const log: Array<{ id: number; event: InboxEvent }> = []
  const streams = new Set<ServerResponse>()
  const requests: TeamApiServer['requests'] = []
  const now = () => new Date().toISOString()

  const publish = (event: InboxEvent) => {
    if (event.type === 'typing') {
      for (const stream of streams) stream.write(formatEvent('typing', event))
      return
    }
    const entry = { id: log.length + 1, event }
    log.push(entry)
    for (const stream of streams) stream.write(formatEvent(event.type, event, entry.id))
  }
  const changed = (conversation: Conversation) => publish({ type: 'handoff', handoff: conversation.summary })
  const addEvent = (conversation: Conversation, event: Omit<HandoffEvent, 'seq' | 'at'>) => {
    const stored = { ...event, seq: conversation.events.length + 1, at: now() } as HandoffEvent
    conversation.events.push(stored)
    if (stored.type === 'message') conversation.summary = { ...conversation.summary, lastMessage: stored.text }
    publish({ type: 'message', handoffId: conversation.summary.id, event: stored })
    return stored
  }
  const agentOf = (token: Token) => ({ name: token.label ?? 'Owner', ...(token.avatarUrl ? { avatarUrl: token.avatarUrl } : {}) })
  const claim = (conversation: Conversation, token: Token) => {
    conversation.summary = { ...conversation.summary, status: 'live', claimedAt: now(), agentTokenId: token.id, agent: agentOf(token) }
    addEvent(conversation, { type: 'status', status: 'live', agent: agentOf(token) })
    changed(conversation)
  }

  let loseAnswer: string | undefined
  const send = (response: ServerResponse, status: number, body?: unknown) => {
    if (loseAnswer && requests.at(-1)?.path.endsWith(loseAnswer)) {
      loseAnswer = undefined
      return void response.destroy()
    }
    response.writeHead(status, body === undefined ? {} : { 'Content-Type': 'application/json' })
    response.end(body === undefined ? undefined : JSON.stringify(body))
  }
  const refuse = (response: ServerResponse, status: number, code: string, message: string) =>
    send(response, status, { error: { code, message } })

  const readBody = async (request: IncomingMessage) => {
    let text = ''
    for await (const chunk of request) text += chunk
    return text ? (JSON.parse(text) as Record<string, unknown>) : undefined
  }

  const paging = { size: 50 }
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost')
    if (options.consoleDir && url.pathname.startsWith('/admin')) {
      const file = /^\/admin\/assets\/(console\.(js|css))$/.exec(url.pathname)
      const type = file?.[2] === 'js' ? 'text/javascript' : 'text/css'
      response.writeHead(200, { 'Content-Type': file ? type : 'text/html' })
      return response.end(file ? readFileSync(join(options.consoleDir, file[1]!)) : CONSOLE_PAGE)
    }
    const body = await readBody(request)
    const header = (name: string) => {
      const value = request.headers[name]
      return typeof value === 'string' ? value : undefined
    }
    requests.push({
      method: request.method ?? 'GET',
      path: url.pathname + url.search,
      body,
      ...(header('last-event-id') ? { lastEventId: header('last-event-id') } : {}),
      ...(header('idempotency-key') ? { idempotencyKey: header('idempotency-key') } : {}),
    })
    // The console's templates (the start panel of the Flows view): none here.
    if (url.pathname === '/admin/assets/templates.json') return send(response, 200, { templates: [] })
    const bearer = /^Bearer (\S+)$/.exec(header('authorization') ?? '')?.[1]
    const caller = tokens.find((token) => token.value === bearer && !token.revoked)
    if (!caller) return refuse(response, 401, 'unauthorized', 'Unknown or revoked token.')
    const path = url.pathname
    const team = caller.kind === 'secret' || caller.kind === 'agent'

    if (path === '/v1/tokens' || path === '/v1/flows' || path.startsWith('/v1/tokens/')) {
      if (caller.kind !== 'secret') return refuse(response, 403, 'forbidden', 'This token kind may not perform this operation.')
      if (path === '/v1/flows') return send(response, 200, { flows: [] })
      if (request.method === 'GET')
        return send(response, 200, {
          workspaceId: 'ws-team',
          tokens: tokens
            .filter((token) => !token.revoked)
            .map((token) => ({
              id: token.id,
              kind: token.kind,
              label: token.label,
              hint: `…${token.value.slice(-4)}`,
              createdAt: '2026-11-28T10:00:00.000Z',
              current: token === caller,
              ...(token.kind === 'agent' ? { agent: agentOf(token) } : {}),
            })),
        })
      if (request.method === 'POST') {
        const kind = body?.kind as TokenKind
        const agent = body?.agent as { name: string; avatarUrl?: string } | undefined
        if (kind === 'agent' && !agent?.name) return refuse(response, 400, 'invalid_body', 'An agent token needs agent.name.')
        const made: Token = { id: newId('tok-'), kind, value: tokenValue(kind), label: agent?.name ?? (body?.label as string) ?? null }
        if (agent?.avatarUrl) made.avatarUrl = agent.avatarUrl
        tokens.push(made)
        const listed = { id: made.id, kind, label: made.label, hint: `…${made.value.slice(-4)}`, createdAt: now(), current: false }
        return send(response, 200, { token: listed, value: made.value })
      }
      const revoked = tokens.find((token) => path === `/v1/tokens/${token.id}`)
      if (!revoked) return refuse(response, 404, 'not_found', 'No such token.')
      revoked.revoked = true
      return send(response, 200, { id: revoked.id, revoked: true })
    }

    if (!team) return refuse(response, 403, 'forbidden', 'A publishable token can only read published flows; use a secret token.')

    if (path === '/v1/handoffs/events') {
      response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' })
      response.write(': open\n\n')
      const after = Number(header('last-event-id') ?? log.length)
      for (const entry of log) if (entry.id > after) response.write(formatEvent(entry.event.type, entry.event, entry.id))
      streams.add(response)
      request.on('close', () => streams.delete(response))
      return
    }
    if (path === '/v1/handoffs/agents') {
      const people = tokens.filter((token) => token.kind === 'agent' && !token.revoked)
      return send(
        response,
        200,
        handoffAgentsResponseSchema.parse({ agents: people.map((token) => ({ id: token.id, ...agentOf(token) })) }),
      )
    }
    if (path === '/v1/handoffs') {
      const wanted = (url.searchParams.get('status') ?? 'waiting,live').split(',')
      const handoffs = [...conversations.values()].map((item) => item.summary).filter((item) => wanted.includes(item.status))
      const from = Number(url.searchParams.get('cursor') ?? 0)
      const page = handoffs.reverse().slice(from, from + paging.size)
      const more = from + paging.size < handoffs.length
      return send(response, 200, { handoffs: page, ...(more ? { nextCursor: String(from + paging.size) } : {}) })
    }
    const match = /^\/v1\/handoffs\/([^/]+)(?:\/(\w+))?$/.exec(path)
    const conversation = match && conversations.get(decodeURIComponent(match[1]!))
    if (!conversation) return refuse(response, 404, 'not_found', 'This workspace has no such conversation.')
    const action = match[2]
    if (request.method === 'GET' && !action) {
      const { transcript, variables, events } = conversation
      return send(response, 200, handoffDetailSchema.parse({ handoff: conversation.summary, transcript, variables, events }))
    }
    const holder = conversation.summary.agentTokenId
    const live = conversation.summary.status === 'live'
    const notYours = () =>
      refuse(response, 409, 'conflict', `${conversation.summary.agent?.name ?? 'Someone else'} is answering this conversation.`)
    switch (action) {
      case 'claim':
        if (conversation.summary.status !== 'waiting')
          return refuse(
            response,
            409,
            'conflict',
            `This conversation was claimed by ${conversation.summary.agent?.name ?? 'someone else'} before you.`,
          )
        claim(conversation, caller)
        return send(response, 200, { handoff: conversation.summary })
      case 'messages': {
        if (!live || holder !== caller.id) return notYours()
        const key = header('idempotency-key')
        const again = key && conversation.events.find((event) => (event as { key?: string }).key === key)
        if (again) return send(response, 201, again)
        const stored = addEvent(conversation, { type: 'message', author: 'agent', text: String(body?.text), agent: agentOf(caller) })
        Object.defineProperty(stored, 'key', { value: key, enumerable: false })
        changed(conversation)
        return send(response, 201, stored)
      }
      case 'typing':
        return send(response, 204)
      case 'variables': {
        if (!live || holder !== caller.id) return notYours()
        const variable = conversation.variables.find((item) => item.name === body?.name)
        if (!variable) return refuse(response, 400, 'invalid_body', 'The block shows no variable of this name.')
        variable.value = String(body?.value)
        return send(response, 204)
      }
      case 'transfer': {
        if (!live || holder !== caller.id) return notYours()
        const to = tokens.find((token) => token.id === body?.agentTokenId && token.kind === 'agent')
        if (!to) return refuse(response, 400, 'invalid_body', 'No agent token with this id.')
        claim(conversation, to)
        return send(response, 200, { handoff: conversation.summary })
      }
      case 'end': {
        if (!live || holder !== caller.id) return notYours()
        conversation.summary = { ...conversation.summary, status: 'ended', endedAt: now() }
        addEvent(conversation, { type: 'status', status: 'ended' })
        changed(conversation)
        return send(response, 200, { handoff: conversation.summary })
      }
    }
    return refuse(response, 404, 'not_found', 'No such route.')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    origin,
    secret,
    agents,
    requests,
    handOver(flowName, detail = {}) {
      const id = newId('handoff-')
      const summary: HandoffSummary = {
        id,
        flowId: `flow-${flowName}`,
        flowName,
        resultId: `result-${id}`,
        status: 'waiting' as HandoffStatus,
        requestedAt: now(),
        deadline: new Date(Date.now() + 120_000).toISOString(),
      }
      conversations.set(id, { summary, transcript: detail.transcript ?? [], variables: detail.variables ?? [], events: [] })
      publish({ type: 'handoff', handoff: summary })
      return summary
    },
    visitorSays(handoffId, text) {
      const conversation = conversations.get(handoffId)!
      const stored = addEvent(conversation, { type: 'message', author: 'visitor', text })
      changed(conversation)
      return stored
    },
    visitorTyping: (handoffId, typing) => publish({ type: 'typing', handoffId, typing }),
    visitorLeaves(handoffId) {
      const conversation = conversations.get(handoffId)!
      conversation.summary = { ...conversation.summary, status: 'left', endedAt: now() }
      addEvent(conversation, { type: 'status', status: 'left' })
      changed(conversation)
    },
    claimAs: (agent, handoffId) => claim(conversations.get(handoffId)!, agent),
    loseNextAnswer: (pathEnd) => void (loseAnswer = pathEnd),
    conversation: (handoffId) => conversations.get(handoffId)!,
    dropStreams() {
      for (const stream of streams) stream.destroy()
      streams.clear()
    },
    openStreams: () => streams.size,
    get pageSize() {
      return paging.size
    },
    set pageSize(size) {
      paging.size = size
    },
    close() {
      for (const stream of streams) stream.destroy()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}
