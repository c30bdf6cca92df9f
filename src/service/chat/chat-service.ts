import type { StartChatRequest, StartChatResponse } from '../../protocol/index'
import { flowRefused } from '../flows/live-flow'
import { newId } from '../ids'
import type { ChatDeps, ResponseJson } from './chat-deps'
import { type FlowGate, unknownFlow } from './chat-gate'
import { countedStep, stepContext, stepWrite } from './chat-step'

/**
 * Starting a chat. The engine computes; this module decides what is allowed and persists the
 * engine's outcome: the gate's one read finds the flow with its live version and takes the
 * request's rate-limit token (chat-gate.ts), the route rules on it and reads the body, the engine
 * runs with no transaction open, and the new session, its result and answers are written in one
 * statement. Answers to a running chat go through a `SessionTurn` (turn.ts) the same way, under
 * its lease.
 */

/** Starts the conversation the gate admitted, with the options its body gave. */
export async function startChat(deps: ChatDeps, gate: FlowGate, request: StartChatRequest): Promise<ResponseJson> {
  const { flow, version, refusal } = gate.live
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
  const context = stepContext(deps, { workspaceId: flow.workspaceId, flowId: flow.id, sessionId, resultId }, gate.request)
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
    versionNumber: version.number,
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
