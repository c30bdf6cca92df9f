import type { Context, Hono } from 'hono'
import { z } from 'zod/mini'
import {
  HANDOFF_STATUSES,
  type HandoffStatus,
  handoffMessageRequestSchema,
  handoffTypingRequestSchema,
  MAX_POLL_SECONDS,
  setHandoffVariableRequestSchema,
  transferHandoffRequestSchema,
} from '../../protocol/handoff'
import { EVENT_STREAM_HEADERS } from '../chat/handoff/event-streams'
import { handoffPoll, handoffStream, inboxStream } from '../chat/handoff/handoff-streams'
import {
  claimHandoff,
  endTeamHandoff,
  handoffDetail,
  listAgents,
  listHandoffs,
  setHandoffVariable,
  type TeamMember,
  teamMessage,
  teamTyping,
  transferHandoff,
} from '../chat/handoff/handoff-team'
import { sessionHandoff, visitorLeave, visitorMessage, visitorTyping } from '../chat/handoff/handoff-visitor'
import type { AppContext } from '../context'
import { authenticate } from '../http/auth'
import { bodyReader } from '../http/body'
import { clientKey } from '../http/client-address'
import { HttpError } from '../http/errors'
import { integerQuery } from '../http/query'
import { isResourceRef } from '../ids'
import { chatGates, idempotencyKey } from './chat-gate'

/**
 * Conversations handed to a person. The visitor's side goes through the visitor gate like every
 * chat route (its session names its handoff; the flow's allowed origins rule on CORS): its events
 * as Server-Sent Events or a long poll, its messages, typing and leaving. The team's side takes a
 * secret or an agent token: the workspace's list, one conversation, the inbox stream, and what a
 * person does with a conversation.
 */
export function registerHandoffRoutes(app: Hono, ctx: AppContext): void {
  const gates = chatGates(ctx)
  const base = '/v1/sessions/:sessionId/handoff'
  const address = (c: Context) => clientKey(c, ctx.config.trustProxyHops)

  app.options(`${base}/events`, gates.preflight('session', { methods: 'GET, OPTIONS', headers: 'Content-Type, Last-Event-ID' }))
  for (const operation of ['messages', 'typing', 'leave']) {
    app.options(`${base}/${operation}`, gates.preflight('session', { methods: 'POST, OPTIONS', headers: 'Content-Type, Idempotency-Key' }))
  }

  app.get(`${base}/events`, gates.session, async (c) => {
    const handoff = await sessionHandoff(ctx, c.var.gate, handoffIdQuery(c))
    const request = { after: lastEventId(c), clientKey: address(c), signal: c.req.raw.signal }
    if (c.req.query('poll') === '1') {
      const timeoutSeconds = integerQuery(c, 'timeoutSeconds', MAX_POLL_SECONDS, 0, MAX_POLL_SECONDS)
      return c.json(await handoffPoll(ctx, handoff, { ...request, timeoutSeconds }))
    }
    const body = handoffStream(ctx, handoff, request)
    // Nothing will ever come: 204 tells an EventSource not to reconnect.
    if (!body) return c.body(null, 204)
    return c.body(body, 200, EVENT_STREAM_HEADERS)
  })

  app.post(`${base}/messages`, gates.session, async (c) => {
    const key = idempotencyKey(c)
    if (key instanceof HttpError) throw key
    const handoff = await sessionHandoff(ctx, c.var.gate, handoffIdQuery(c))
    const { text } = await gates.readBody(c, handoffMessageRequestSchema, { keys: ['text'] })
    return c.json(await visitorMessage(ctx, handoff, text, key), 201)
  })

  app.post(`${base}/typing`, gates.session, async (c) => {
    const handoff = await sessionHandoff(ctx, c.var.gate, handoffIdQuery(c))
    const { typing } = await gates.readBody(c, handoffTypingRequestSchema, { keys: ['typing'] })
    await visitorTyping(ctx, handoff, typing)
    return c.body(null, 204)
  })

  app.post(`${base}/leave`, gates.session, async (c) => {
    const handoff = await sessionHandoff(ctx, c.var.gate, handoffIdQuery(c))
    await gates.readBody(c, emptyObject, { keys: [], absent: {} })
    const left = await visitorLeave(ctx, handoff)
    return c.json({ status: left.status })
  })

  // The team's side.
  const member = teamMember(ctx)
  const readBody = bodyReader(ctx.config.bodyLimits.chatBytes)
  const handoffId = (c: Context) => {
    const id = c.req.param('handoffId') ?? ''
    if (!isResourceRef(id)) throw new HttpError('not_found', 'This workspace has no handoff with this id.')
    return id
  }

  app.get('/v1/handoffs', async (c) => {
    const who = await member(c)
    const cursor = c.req.query('cursor')
    return c.json(await listHandoffs(ctx, who, { statuses: statusesQuery(c), ...(cursor ? { cursor } : {}) }))
  })

  // These two before `/v1/handoffs/:handoffId`, which would otherwise take `events` and `agents` for ids.
  app.get('/v1/handoffs/events', async (c) => {
    const who = await member(c)
    const body = inboxStream(ctx, who.workspaceId, { after: lastEventId(c), clientKey: address(c), signal: c.req.raw.signal })
    return c.body(body, 200, EVENT_STREAM_HEADERS)
  })

  app.get('/v1/handoffs/agents', async (c) => c.json(await listAgents(ctx, await member(c))))

  app.get('/v1/handoffs/:handoffId', async (c) => c.json(await handoffDetail(ctx, await member(c), handoffId(c))))

  app.post('/v1/handoffs/:handoffId/claim', async (c) => {
    const who = await member(c)
    await readBody(c, emptyObject, { keys: [], absent: {} })
    return c.json({ handoff: await claimHandoff(ctx, who, handoffId(c)) })
  })

  app.post('/v1/handoffs/:handoffId/messages', async (c) => {
    const who = await member(c)
    const key = idempotencyKey(c)
    if (key instanceof HttpError) throw key
    const { text } = await readBody(c, handoffMessageRequestSchema, { keys: ['text'] })
    return c.json(await teamMessage(ctx, who, handoffId(c), text, key), 201)
  })

  app.post('/v1/handoffs/:handoffId/typing', async (c) => {
    const who = await member(c)
    const { typing } = await readBody(c, handoffTypingRequestSchema, { keys: ['typing'] })
    await teamTyping(ctx, who, handoffId(c), typing)
    return c.body(null, 204)
  })

  app.post('/v1/handoffs/:handoffId/variables', async (c) => {
    const who = await member(c)
    const { name, value } = await readBody(c, setHandoffVariableRequestSchema, { keys: ['name', 'value'] })
    return c.json(await setHandoffVariable(ctx, who, handoffId(c), name, value))
  })

  app.post('/v1/handoffs/:handoffId/transfer', async (c) => {
    const who = await member(c)
    const { agentTokenId } = await readBody(c, transferHandoffRequestSchema, { keys: ['agentTokenId'] })
    return c.json({ handoff: await transferHandoff(ctx, who, handoffId(c), agentTokenId) })
  })

  app.post('/v1/handoffs/:handoffId/end', async (c) => {
    const who = await member(c)
    await readBody(c, emptyObject, { keys: [], absent: {} })
    return c.json({ handoff: await endTeamHandoff(ctx, who, handoffId(c)) })
  })
}

/** A secret or an agent token, counted against the token's management rate limit. */
function teamMember(ctx: AppContext): (c: Context) => Promise<TeamMember> {
  return async (c) => {
    const caller = await authenticate(c, ctx.auth, ['secret', 'agent'])
    await ctx.limiters.management.consume(`token:${caller.tokenId}`)
    return {
      tokenId: caller.tokenId,
      workspaceId: caller.workspaceId,
      kind: caller.kind === 'agent' ? 'agent' : 'secret',
      agent: caller.agent ?? { name: caller.label?.trim() || 'Team' },
    }
  }
}

const emptyObject = z.looseObject({})

/** `Last-Event-ID` (an EventSource reconnecting), else `after`: a whole number, 0 when absent. */
function lastEventId(c: Context): number {
  const header = c.req.header('last-event-id')
  if (header !== undefined && /^\d{1,15}$/.test(header.trim())) return Number(header.trim())
  if (header !== undefined && header.trim() !== '') {
    throw new HttpError('invalid_query', 'Last-Event-ID is the id of an event this stream sent.', [
      { path: 'Last-Event-ID', message: 'Expected a whole number' },
    ])
  }
  const after = c.req.query('after')
  if (after === undefined || after === '') return 0
  if (!/^\d{1,15}$/.test(after))
    throw new HttpError('invalid_query', 'after is the id of an event this stream sent.', [
      { path: 'after', message: 'Expected a whole number' },
    ])
  return Number(after)
}

/** `handoffId` pins one of the session's handoffs (its latest otherwise); a malformed one names none. */
function handoffIdQuery(c: Context): string | undefined {
  const id = c.req.query('handoffId')
  if (id === undefined) return undefined
  if (!isResourceRef(id)) throw new HttpError('not_found', 'This conversation has no handoff to a person.')
  return id
}

function statusesQuery(c: Context): HandoffStatus[] {
  const raw = c.req.query('status')
  if (raw === undefined || raw === '') return ['waiting', 'live']
  const statuses = raw.split(',').map((status) => status.trim())
  const wrong = statuses.filter((status) => !(HANDOFF_STATUSES as readonly string[]).includes(status))
  if (wrong.length > 0) {
    throw new HttpError('invalid_query', `status lists some of: ${HANDOFF_STATUSES.join(', ')}.`, [
      { path: 'status', message: `Unknown: ${wrong.join(', ')}` },
    ])
  }
  return statuses as HandoffStatus[]
}
