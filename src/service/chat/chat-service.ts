import type { StartChatRequest, StartChatResponse } from '../../protocol/index'
import { findLiveFlow, flowRefused, type LiveFlow } from '../flows/live-flow'
import { HttpError } from '../http/errors'
import { newId } from '../ids'
import type { RequestContext } from '../observability/request-context'
import type { ChatDeps, ResponseJson } from './chat-deps'
import { countedStep, stepContext, stepWrite } from './chat-step'
import { type ChatGate, rateVerdict } from './turn'

/**
 * Starting a chat. The engine computes; this module decides what is allowed and persists the
 * engine's outcome: the turn's one read finds the flow with its live version and takes the
 * request's rate-limit token, the route rules on it and reads the body, the engine runs with no
 * transaction open, and the new session, its result and answers are written in one statement.
 * Answers to a running chat go through a `SessionTurn` (turn.ts) the same way, under its lease.
 */

/** A new conversation's turn: the flow a reference names, with its live version. */
export interface StartTurn extends ChatGate {
  readonly live: LiveFlow
  readonly request?: RequestContext
}

export async function openStart(deps: ChatDeps, input: { ref: string; rateKey: string; request?: RequestContext }): Promise<StartTurn> {
  const live = await findLiveFlow(deps, input.ref, 'start', {
    rateLimit: (name, params) => deps.limiter.cte(name, params, input.rateKey),
  })
  const found = live.flow !== undefined
  return {
    live,
    allowedOrigins: live.allowedOrigins,
    rateLimited: rateVerdict(deps, live.rateLimit),
    found,
    workspaceId: live.flow?.workspaceId,
    request: input.request,
  }
}

/** Starts the conversation the route admitted, with the options its body gave. */
export async function startChat(deps: ChatDeps, turn: StartTurn, request: StartChatRequest): Promise<ResponseJson> {
  const { flow, version, refusal } = turn.live
  if (refusal || !flow || !version) throw flowRefused(refusal ?? 'not_found', unknownFlow)

  // A result id from another flow, or one we never issued, just starts a fresh result.
  const resumed = request.resultId ? await deps.store.results.findForFlow(request.resultId, flow.id) : undefined
  const sessionId = newId()
  const resultId = resumed?.id ?? newId()
  const options = {
    prefilledVariables: request.prefilledVariables ?? undefined,
    restoredVariables: resumed?.variables,
    isStreamEnabled: request.isStreamEnabled === true,
    ...(request.message !== undefined && request.message !== null ? { message: request.message } : {}),
  }
  const context = stepContext(deps, { workspaceId: flow.workspaceId, flowId: flow.id, sessionId, resultId }, turn.request)
  const outcome = await countedStep('start', () => deps.engine.start(version.snapshot, options, context))

  const now = deps.now()
  await deps.store.chatSteps.commitStart({
    session: {
      id: sessionId,
      flowId: flow.id,
      resultId,
      publishedFlowId: version.publishedFlowId,
      publishedVersionId: version.versionId,
      publishedAt: version.publishedAt,
    },
    newResult: !resumed,
    ...stepWrite(outcome, now, deps.sessionTtlSeconds),
  })
  const response: StartChatResponse = {
    ...outcome.response,
    sessionId,
    resultId,
    flowId: flow.id,
    publishedAt: version.publishedAt,
  }
  return JSON.stringify(response)
}

/** The origins a flow's live version allows, for a preflight (no rate limit, no lease). */
export async function allowedOriginsOfFlow(deps: ChatDeps, ref: string): Promise<string[]> {
  return (await findLiveFlow(deps, ref, 'start')).allowedOrigins
}

export async function allowedOriginsOfSession(deps: ChatDeps, sessionId: string): Promise<string[]> {
  const session = await deps.store.sessions.findById(sessionId)
  return session ? (await findLiveFlow(deps, session.flowId, 'session')).allowedOrigins : []
}

/** What startChat answers for a reference no flow is found under. */
export function unknownFlow(): HttpError {
  return new HttpError('flow_not_found', 'No flow has this id or public id.')
}
