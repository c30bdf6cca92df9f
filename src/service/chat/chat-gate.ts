import { type FlowStanding, findLiveFlow, type LiveFlow, liveFlow } from '../flows/live-flow'
import { HttpError } from '../http/errors'
import { rateLimited } from '../http/rate-limit'
import type { RequestContext } from '../observability/request-context'
import type { SessionLookup } from '../store/chat-steps-repository'
import { type VerdictRow, verdictOf } from '../store/rate-limits-repository'
import type { ChatDeps } from './chat-deps'
import { sessionNotFound } from './session-check'

/**
 * The visitor gate: what a chat request without a token is ruled on before its body is read,
 * from the one read that finds what it names. Three things can be named, each opened here or in
 * turn.ts: a flow, for a new conversation (`openFlowGate`); a running session a request follows
 * without stepping it, for a streamed answer, an upload, a webhook wait (`openSessionGate`); and a
 * session's turn, its lease taken, for an answer (`SessionTurn.open`). The route's middleware
 * (routes/chat-gate.ts) rules on each the same way, in this order: the origin, the rate limit,
 * existence; then the route reads the body, and the gate closes once the request is answered.
 */
export interface ChatGate {
  /** `settings.security.allowedOrigins` of the flow's live version (empty: every origin). */
  readonly allowedOrigins: string[]
  /** The 429 to answer when the client's bucket is empty. */
  readonly rateLimited: HttpError | undefined
  /** The flow or session exists (and is in service) for this request. */
  readonly found: boolean
  /** The workspace of the flow or session found, for the request's log lines. */
  readonly workspaceId: string | undefined
  /** The 404 to answer when nothing is found. */
  notFound(): HttpError
  /** Lets go of what the request holds (a session's lease) once it is answered. */
  close?(): Promise<void>
}

/** Who a gate is opened for: the client's rate-limit bucket (none for a preflight) and its request. */
export interface GateInput {
  rateKey?: string
  request?: RequestContext
}

/** A new conversation's gate: the flow a reference names, with its live version. */
export interface FlowGate extends ChatGate {
  readonly live: LiveFlow
  readonly request?: RequestContext
}

/** The gate of a request that follows a running session: the session, its flow's live version. */
export interface SessionGate extends ChatGate {
  /** The session as stored, with its flow's standing. */
  readonly session: SessionLookup['session']
  readonly live: LiveFlow<FlowStanding>
  readonly request?: RequestContext
}

export async function openFlowGate(deps: ChatDeps, input: GateInput & { ref: string }): Promise<FlowGate> {
  const { rateKey } = input
  const live = await findLiveFlow(deps, input.ref, 'start', {
    rateLimit: rateKey === undefined ? undefined : (name, params) => deps.limiter.cte(name, params, rateKey),
  })
  const flow = live.flow
  return { ...verdict(deps, live, live.rateLimit, flow?.workspaceId, unknownFlow), live, request: input.request }
}

export async function openSessionGate(deps: ChatDeps, input: GateInput & { sessionId: string }): Promise<SessionGate> {
  const { rateKey } = input
  const { session, rateLimit } = await deps.store.chatSteps.findSession(input.sessionId, {
    rateLimit: rateKey === undefined ? undefined : (name, params) => deps.limiter.cte(name, params, rateKey),
  })
  const live = await liveFlow(deps.versions, session, 'session')
  const notFound = () => sessionNotFound(input.sessionId || '(invalid id)')
  return { ...verdict(deps, live, rateLimit, session?.workspaceId, notFound), session, live, request: input.request }
}

/** The gate's rulings on what one read found: the live version's origins, the rate verdict, existence. */
export function verdict(
  deps: Pick<ChatDeps, 'limiter'>,
  live: LiveFlow<FlowStanding>,
  rateLimit: VerdictRow | undefined,
  workspaceId: string | undefined,
  notFound: () => HttpError,
): ChatGate {
  return {
    allowedOrigins: live.allowedOrigins,
    rateLimited: rateLimit && rateLimited(verdictOf(rateLimit, deps.limiter.config)),
    found: live.flow !== undefined,
    workspaceId,
    notFound,
  }
}

/** What startChat answers for a reference no flow is found under. */
export function unknownFlow(): HttpError {
  return new HttpError('flow_not_found', 'No flow has this id or public id.')
}
