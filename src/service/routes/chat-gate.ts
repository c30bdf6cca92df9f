import type { Context, Handler, MiddlewareHandler } from 'hono'
import { MAX_IDEMPOTENCY_KEY_LENGTH } from '../../protocol/index'
import { type ChatGate, openFlowGate, openSessionGate } from '../chat/chat-gate'
import { SessionTurn } from '../chat/turn'
import type { AppContext } from '../context'
import { bodyReader } from '../http/body'
import { applyChatOrigin, preflightResponse } from '../http/cors'
import { HttpError } from '../http/errors'
import { chatRateKey, type RateLimiter } from '../http/rate-limit'
import { isResourceRef } from '../ids'
import { noteWorkspace, requestOf } from '../observability/request-context'

/**
 * The visitor gate, as the middleware every chat route without a token runs first: it opens the
 * request's gate (one read finds the flow or session the path names with its live version, and
 * takes the client's rate-limit token: chat/chat-gate.ts), settles the origin, names the
 * workspace in the request's log lines, answers 429 or 404, lets the route read its body and act,
 * and closes the gate once the request is answered (a turn releases its lease). Settling the
 * origin first means every later answer, 400, 404 and 429 with Retry-After included, carries
 * CORS headers the widget can read, while a refused origin learns nothing more. Unknown flows and
 * sessions impose no origin rule: the request then fails with a readable 404 rather than an
 * opaque CORS error.
 *
 * A new surface for visitors (a live channel, an identity, a version) takes one of these gates,
 * or opens a new kind of gate in chat/chat-gate.ts, and is ruled on like every other.
 */
export function chatGates(ctx: AppContext) {
  const rateKey = (c: Context) => chatRateKey(c, ctx.config.trustProxyHops)
  const gate = gateOf(ctx.limiter, rateKey)
  const flowRef = (c: Context) => ref(c.req.param('flowId'))
  const sessionId = (c: Context) => ref(c.req.param('sessionId'))
  return {
    /** A new conversation's: the flow `:flowId` names (its id or public id), with its live version. */
    flow: gate((c) => openFlowGate(ctx, { ref: flowRef(c), rateKey: rateKey(c), request: requestOf(c) })),
    /** A request that follows the session `:sessionId` without stepping it: a streamed answer, an upload, a wait. */
    session: gate((c) => openSessionGate(ctx, { sessionId: sessionId(c), rateKey: rateKey(c), request: requestOf(c) })),
    /** An answer: the session's turn, its lease taken; an `Idempotency-Key` replays the stored response. */
    turn: gate(
      (c) => {
        const key = idempotencyKey(c)
        return SessionTurn.open(ctx, {
          sessionId: sessionId(c),
          rateKey: rateKey(c),
          idempotencyKey: key instanceof HttpError ? undefined : key,
          request: requestOf(c),
        })
      },
      (c) => {
        const key = idempotencyKey(c)
        return key instanceof HttpError ? key : undefined
      },
    ),
    /** A preflight of a flow's or a session's operation: the origins its live version allows, no rate limit. */
    preflight(of: 'flow' | 'session', policy: { methods: string; headers: string }): Handler {
      return async (c) => {
        const found = of === 'flow' ? await openFlowGate(ctx, { ref: flowRef(c) }) : await openSessionGate(ctx, { sessionId: sessionId(c) })
        applyChatOrigin(c, found.allowedOrigins)
        const origin = c.req.header('origin')
        return origin === undefined ? c.body(null, 204) : preflightResponse(c, origin, policy)
      }
    },
    /** Reads a visitor's JSON body, within the chat's body limit. */
    readBody: bodyReader(ctx.config.bodyLimits.chatBytes),
  }
}

/**
 * The gate as middleware: `open` reads, the rule rules (origin, workspace, 429, 404, then what
 * `refuse` finds wrong with the request's own headers), the route runs with the gate in
 * `c.var.gate`, and the gate closes after the route answered, whatever it answered.
 */
const gateOf =
  (limiter: RateLimiter, rateKey: (c: Context) => string) =>
  <G extends ChatGate>(
    open: (c: Context) => Promise<G>,
    refuse?: (c: Context) => HttpError | undefined,
  ): MiddlewareHandler<{ Variables: { gate: G } }> =>
  async (c, next) => {
    // A client that ignored the Retry-After its 429 gave is refused again from memory, before any
    // statement (http/rate-limit.ts): only a flood gets here, so its answer needs no origin settled.
    const refusedAgain = limiter.refusedNow(rateKey(c))
    if (refusedAgain) throw refusedAgain
    const opened = await open(c)
    try {
      applyChatOrigin(c, opened.allowedOrigins)
      noteWorkspace(c, opened.workspaceId)
      if (opened.rateLimited) throw limiter.note(rateKey(c), opened.rateLimited)
      if (!opened.found) throw opened.notFound()
      const refused = refuse?.(c)
      if (refused) throw refused
      c.set('gate', opened)
      await next()
    } finally {
      await opened.close?.()
    }
  }

/** Paths that cannot name anything are looked up as a name nothing has. */
const ref = (value: string | undefined) => (value !== undefined && isResourceRef(value) ? value : '')

// Visible ASCII only: keys are opaque tokens the client generates (UUIDs and the like).
const IDEMPOTENCY_KEY = new RegExp(`^[\\x21-\\x7e]{1,${MAX_IDEMPOTENCY_KEY_LENGTH}}$`)

/** The key, or the 400 to answer once origin, rate limit and existence have been ruled on. */
export function idempotencyKey(c: Context): string | HttpError | undefined {
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
