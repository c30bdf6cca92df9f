import type { Context, Hono } from 'hono'
import { z } from 'zod/mini'
import { continueChatRequestSchema, MAX_LISTEN_SECONDS, startChatRequestSchema } from '../../protocol/index'
import { startChat } from '../chat/chat-service'
import { streamMessage } from '../chat/stream-service'
import { listenForWebhook } from '../chat/webhook-service'
import type { AppContext } from '../context'
import { CHAT_CORS } from '../http/cors'
import { HttpError } from '../http/errors'
import { integerQuery } from '../http/query'
import { isResourceRef } from '../ids'
import { chatGates } from './chat-gate'

/**
 * The visitor-facing chat API: no token; sessions are identified by their unguessable id. Each
 * request reads top to bottom: its gate (chat-gate.ts) opens what the path names in one read and
 * rules on origin, rate limit and existence; the handler reads and parses the body, runs the step
 * and answers; the gate closes (a turn releases its session's lease).
 */
export function registerChatRoutes(app: Hono, ctx: AppContext): void {
  const gates = chatGates(ctx)

  app.options('/v1/flows/:flowId/startChat', gates.preflight('flow', CHAT_CORS))

  app.post('/v1/flows/:flowId/startChat', gates.flow, async (c) => {
    // Only a missing body means "no options"; a JSON null is a wrong shape like any other.
    const request = await gates.readBody(c, startChatRequestSchema, {
      keys: ['prefilledVariables', 'resultId', 'isStreamEnabled', 'message', 'user', 'startOver'],
      absent: {},
    })
    return jsonText(c, await startChat(ctx, c.var.gate, request))
  })

  for (const operation of ['continueChat', 'streamMessage']) {
    app.options(`/v1/sessions/:sessionId/${operation}`, gates.preflight('session', CHAT_CORS))
  }

  // The answer of the AI block the session waits on, as lines (src/protocol/stream.ts).
  app.post('/v1/sessions/:sessionId/streamMessage', gates.session, async (c) => {
    // The service builds the prompt itself: a client sends nothing but `{}`.
    await gates.readBody(c, emptyObject, { keys: [], absent: {} })
    const body = await streamMessage(ctx, c.var.gate, c.req.raw.signal)
    return c.body(body, 200, { 'Content-Type': 'text/plain; charset=utf-8' })
  })

  app.post('/v1/sessions/:sessionId/continueChat', gates.turn, async (c) => {
    const { message } = await gates.readBody(c, continueChatRequestSchema, { keys: ['message'] })
    return jsonText(c, await c.var.gate.advance({ kind: 'message', message }))
  })

  app.options('/v1/sessions/:sessionId/listenForWebhook', gates.preflight('session', LISTEN_CORS))

  // A widget waiting for a wait-for-webhook block asks here until the flow went on (long poll).
  app.get('/v1/sessions/:sessionId/listenForWebhook', gates.session, async (c) => {
    const waitId = c.req.query('waitId') ?? ''
    if (!isResourceRef(waitId)) {
      throw new HttpError('invalid_query', 'waitId is the one of the listenForWebhook action.', [
        { path: 'waitId', message: 'Missing or malformed' },
      ])
    }
    const timeoutSeconds = integerQuery(c, 'timeoutSeconds', MAX_LISTEN_SECONDS, 0, MAX_LISTEN_SECONDS)
    return c.json(await listenForWebhook(ctx, c.var.gate, { waitId, timeoutSeconds, signal: c.req.raw.signal }))
  })
}

const emptyObject = z.looseObject({})

const LISTEN_CORS = { methods: 'GET, OPTIONS', headers: 'Content-Type' }

function jsonText(c: Context, json: string): Response {
  return c.body(json, 200, { 'Content-Type': 'application/json' })
}
