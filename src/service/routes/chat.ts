import type { Context, Hono } from 'hono'
import { z } from 'zod/mini'
import { continueChatRequestSchema, MAX_IDEMPOTENCY_KEY_LENGTH, MAX_LISTEN_SECONDS, startChatRequestSchema } from '../../protocol/index'
import type { ChatDeps } from '../chat/chat-deps'
import { allowedOriginsOfFlow, allowedOriginsOfSession, openStart, startChat, unknownFlow } from '../chat/chat-service'
import { sessionNotFound } from '../chat/session-check'
import { openStream, streamMessage } from '../chat/stream-service'
import { type ChatGate, SessionTurn } from '../chat/turn'
import { listenForWebhook } from '../chat/webhook-service'
import type { AppContext } from '../context'
import { parseBody, readJsonBody } from '../http/body'
import { applyChatOrigin, CHAT_CORS, preflightResponse } from '../http/cors'
import { HttpError } from '../http/errors'
import { integerQuery } from '../http/query'
import { chatRateKey } from '../http/rate-limit'
import { isResourceRef } from '../ids'
import { noteWorkspace, requestOf } from '../observability/request-context'

/**
 * The visitor-facing chat API: no token; sessions are identified by their unguessable id.
 *
 * Each request reads top to bottom: the route opens the request's turn (the flow or session, its
 * live version's allowed origins, the rate limit's verdict and, for an answer, the session's
 * lease and any stored idempotent response, in one read), settles the origin, answers 429 or 404,
 * reads and parses the body, runs the step, and closes the turn. Settling the origin first means
 * every later answer, 400, 404 and 429 with Retry-After included, carries CORS headers the widget
 * can read, while a refused origin learns nothing more. Unknown flows and sessions impose no
 * origin rule: the real request then fails with a readable 404 rather than an opaque CORS error.
 */
export function registerChatRoutes(app: Hono, ctx: AppContext): void {
  const { config } = ctx
  const deps: ChatDeps = ctx
  const rateKey = (c: Context) => chatRateKey(c, config.trustProxyHops)
  const readBody = (c: Context, optional: boolean) => readJsonBody(c, { limitBytes: config.bodyLimits.chatBytes, optional })
  /** Origin first, then the rate limit, then existence: see the note above. */
  const admit = (c: Context, gate: ChatGate, notFound: () => HttpError) => {
    applyChatOrigin(c, gate.allowedOrigins)
    noteWorkspace(c, gate.workspaceId)
    if (gate.rateLimited) throw ctx.limiter.note(rateKey(c), gate.rateLimited)
    if (!gate.found) throw notFound()
  }
  /**
   * A client that ignored the Retry-After its 429 gave is refused again from memory, before any
   * statement (http/rate-limit.ts): only a flood gets there, so its answer needs no origin settled.
   */
  const refuseAgain = (c: Context) => {
    const refused = ctx.limiter.refusedNow(rateKey(c))
    if (refused) throw refused
  }
  // Paths that cannot name anything are looked up as a name nothing has.
  const ref = (value: string) => (isResourceRef(value) ? value : '')
  const noSession = (sessionId: string) => () => sessionNotFound(sessionId || '(invalid id)')

  app.options('/v1/flows/:flowId/startChat', async (c) => {
    applyChatOrigin(c, await allowedOriginsOfFlow(deps, ref(c.req.param('flowId'))))
    return preflight(c)
  })

  app.post('/v1/flows/:flowId/startChat', async (c) => {
    refuseAgain(c)
    const turn = await openStart(deps, { ref: ref(c.req.param('flowId')), rateKey: rateKey(c), request: requestOf(c) })
    admit(c, turn, unknownFlow)
    const raw = await readBody(c, true)
    // Only a missing body means "no options"; a JSON null is a wrong shape like any other.
    const request = parseBody(startChatRequestSchema, raw === undefined ? {} : raw, [
      'prefilledVariables',
      'resultId',
      'isStreamEnabled',
      'message',
    ])
    return jsonText(c, await startChat(deps, turn, request))
  })

  for (const operation of ['continueChat', 'streamMessage']) {
    app.options(`/v1/sessions/:sessionId/${operation}`, async (c) => {
      const sessionId = ref(c.req.param('sessionId'))
      applyChatOrigin(c, sessionId ? await allowedOriginsOfSession(deps, sessionId) : [])
      return preflight(c)
    })
  }

  // The answer of the AI block the session waits on, as lines (src/protocol/stream.ts).
  app.post('/v1/sessions/:sessionId/streamMessage', async (c) => {
    const sessionId = ref(c.req.param('sessionId'))
    refuseAgain(c)
    const turn = await openStream(deps, { sessionId, rateKey: rateKey(c), request: requestOf(c) })
    admit(c, turn, noSession(sessionId))
    // The service builds the prompt itself: a client sends nothing but `{}`.
    parseBody(emptyObject, (await readBody(c, true)) ?? {}, [])
    const body = await streamMessage(deps, turn, c.req.raw.signal)
    return c.body(body, 200, { 'Content-Type': 'text/plain; charset=utf-8' })
  })

  app.post('/v1/sessions/:sessionId/continueChat', async (c) => {
    const sessionId = ref(c.req.param('sessionId'))
    const key = readIdempotencyKey(c)
    refuseAgain(c)
    const turn = await SessionTurn.open(deps, {
      sessionId,
      rateKey: rateKey(c),
      idempotencyKey: key instanceof HttpError ? undefined : key,
      request: requestOf(c),
    })
    try {
      admit(c, turn, noSession(sessionId))
      if (key instanceof HttpError) throw key
      const { message } = parseBody(continueChatRequestSchema, await readBody(c, false), ['message'])
      return jsonText(c, await turn.advance({ kind: 'message', message }))
    } finally {
      await turn.close()
    }
  })

  app.options('/v1/sessions/:sessionId/listenForWebhook', async (c) => {
    const sessionId = ref(c.req.param('sessionId'))
    applyChatOrigin(c, sessionId ? await allowedOriginsOfSession(deps, sessionId) : [])
    const origin = c.req.header('origin')
    return origin === undefined ? c.body(null, 204) : preflightResponse(c, origin, LISTEN_CORS)
  })

  // A widget waiting for a wait-for-webhook block asks here until the flow went on (long poll).
  app.get('/v1/sessions/:sessionId/listenForWebhook', async (c) => {
    const sessionId = ref(c.req.param('sessionId'))
    applyChatOrigin(c, sessionId ? await allowedOriginsOfSession(deps, sessionId) : [])
    await ctx.limiters.chat.consume(rateKey(c))
    if (!sessionId) throw sessionNotFound('(invalid id)')
    const waitId = c.req.query('waitId') ?? ''
    if (!isResourceRef(waitId)) {
      throw new HttpError('invalid_query', 'waitId is the one of the listenForWebhook action.', [
        { path: 'waitId', message: 'Missing or malformed' },
      ])
    }
    const timeoutSeconds = integerQuery(c, 'timeoutSeconds', MAX_LISTEN_SECONDS, 0, MAX_LISTEN_SECONDS)
    return c.json(await listenForWebhook(deps, { sessionId, waitId, timeoutSeconds, signal: c.req.raw.signal }))
  })
}

const emptyObject = z.looseObject({})

const LISTEN_CORS = { methods: 'GET, OPTIONS', headers: 'Content-Type' }

function jsonText(c: Context, json: string): Response {
  return c.body(json, 200, { 'Content-Type': 'application/json' })
}

function preflight(c: Context): Response {
  const origin = c.req.header('origin')
  return origin === undefined ? c.body(null, 204) : preflightResponse(c, origin, CHAT_CORS)
}

// Visible ASCII only: keys are opaque tokens the client generates (UUIDs and the like).
const IDEMPOTENCY_KEY = new RegExp(`^[\\x21-\\x7e]{1,${MAX_IDEMPOTENCY_KEY_LENGTH}}$`)

/** The key, or the 400 to answer once origin, rate limit and existence have been ruled on. */
function readIdempotencyKey(c: Context): string | HttpError | undefined {
  const key = c.req.header('idempotency-key')
  if (key === undefined) return undefined
  if (!IDEMPOTENCY_KEY.test(key)) {
    return new HttpError(
      'invalid_body',
      `The Idempotency-Key header must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters.`,
      [{ path: 'Idempotency-Key', message: `Got ${key.length} characters` }],
    )
  }
  return key
}
