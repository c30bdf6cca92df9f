import type { Context, Hono } from 'hono'
import {
  continueChatRequestSchema,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  startChatRequestSchema,
} from '../../protocol/index'
import { continueChat, sessionNotFound, startChat, type ChatDeps } from '../chat/chat-service'
import { isResourceRef, type AppContext } from '../context'
import { parseBody, readJsonBody } from '../http/body'
import { clientAddress } from '../http/client-address'
import { allowedOriginsOf, applyChatOrigin, CHAT_CORS, preflightResponse } from '../http/cors'
import { HttpError } from '../http/errors'

/**
 * The visitor-facing chat API: no token; sessions are identified by their unguessable id.
 *
 * Each handler first settles the origin (from the flow's live published settings), so every
 * later answer — including 400, 404 and 429 with Retry-After — carries CORS headers the widget
 * can read, while a refused origin learns nothing more. Unknown flows and sessions impose no
 * origin rule: the real request then fails with a readable 404 rather than an opaque CORS error.
 */
export function registerChatRoutes(app: Hono, ctx: AppContext): void {
  const { store, config, limiters } = ctx
  const deps: ChatDeps = {
    store,
    engine: ctx.engine,
    now: ctx.now,
    sessionTtlSeconds: config.sessionTtlSeconds,
  }
  const throttle = (c: Context) => limiters.chat.consume(`chat:${clientAddress(c, config.trustProxyHops)}`)
  const readBody = (c: Context, optional: boolean) =>
    readJsonBody(c, { limitBytes: config.bodyLimits.chatBytes, optional })

  /** The flow a startChat path names, with its live published version. */
  const resolveFlow = async (c: Context, ref: string) => {
    const found = isResourceRef(ref) ? await store.flows.findByIdOrPublicId(ref) : undefined
    // An archived flow is out of service: it answers like one that never existed.
    const flow = found?.isArchived ? undefined : found
    const published = flow && (await store.publishedFlows.findCurrent(flow.id))
    applyChatOrigin(c, allowedOriginsOf(published?.snapshot.settings))
    return { flow, published }
  }

  /** The session a continueChat path names; origin rules come from its flow's live version. */
  const resolveSession = async (c: Context, sessionId: string) => {
    const session = isResourceRef(sessionId) ? await store.sessions.findById(sessionId) : undefined
    const published = session && (await store.publishedFlows.findCurrent(session.flowId))
    applyChatOrigin(c, allowedOriginsOf(published?.snapshot.settings))
    return { sessionId, session }
  }

  app.options('/v1/flows/:flowId/startChat', async (c) => {
    await resolveFlow(c, c.req.param('flowId'))
    return preflight(c)
  })

  app.post('/v1/flows/:flowId/startChat', async (c) => {
    const { flow, published } = await resolveFlow(c, c.req.param('flowId'))
    throttle(c)
    if (!flow) throw new HttpError('flow_not_found', 'No flow has this id or public id.')
    const raw = await readBody(c, true)
    // Only a missing body means "no options"; a JSON null is a wrong shape like any other.
    const request = parseBody(startChatRequestSchema, raw === undefined ? {} : raw, ['prefilledVariables', 'resultId'])
    return c.json(await startChat(deps, { flow, published, request }))
  })

  app.options('/v1/sessions/:sessionId/continueChat', async (c) => {
    await resolveSession(c, c.req.param('sessionId'))
    return preflight(c)
  })

  app.post('/v1/sessions/:sessionId/continueChat', async (c) => {
    const { sessionId, session } = await resolveSession(c, c.req.param('sessionId'))
    throttle(c)
    if (!session) throw sessionNotFound(isResourceRef(sessionId) ? sessionId : '(invalid id)')
    const idempotencyKey = readIdempotencyKey(c)
    const request = parseBody(continueChatRequestSchema, await readBody(c, false), ['message'])
    return c.json(await continueChat(deps, { sessionId, message: request.message, idempotencyKey }))
  })
}

function preflight(c: Context): Response {
  const origin = c.req.header('origin')
  return origin === undefined ? c.body(null, 204) : preflightResponse(c, origin, CHAT_CORS)
}

// Visible ASCII only: keys are opaque tokens the client generates (UUIDs and the like).
const IDEMPOTENCY_KEY = new RegExp(`^[\\x21-\\x7e]{1,${MAX_IDEMPOTENCY_KEY_LENGTH}}$`)

function readIdempotencyKey(c: Context): string | undefined {
  const key = c.req.header('idempotency-key')
  if (key === undefined) return undefined
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw new HttpError(
      'invalid_body',
      `The Idempotency-Key header must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters.`,
      [{ path: 'Idempotency-Key', message: `Got ${key.length} characters` }],
    )
  }
  return key
}
