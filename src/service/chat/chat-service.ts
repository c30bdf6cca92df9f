import type { StartChatRequest, StartChatResponse } from '../../protocol/index'
import { flowRefused } from '../flows/live-flow'
import { identityRefusedLog, verifyUser } from '../identity/identity-verification'
import { newId } from '../ids'
import type { ChatDeps, ResponseJson } from './chat-deps'
import { type FlowGate, unknownFlow } from './chat-gate'
import { countedStep, stepContext, stepWrite } from './chat-step'
import { usersConversation } from './users-conversation'

/**
 * Starting a chat. The engine computes; this module decides what is allowed and persists the
 * engine's outcome: the gate's one read finds the flow with its live version and takes the
 * request's rate-limit token (chat-gate.ts), the route rules on it and reads the body, the engine
 * runs with no transaction open, and the new session, its result and answers are written in one
 * statement. Answers to a running chat go through a `SessionTurn` (turn.ts) the same way, under
 * its lease. A verified user (identity-verification.ts) goes on with their running conversation
 * instead, from whichever device (users-conversation.ts).
 */

/** Starts the conversation the gate admitted, with the options its body gave. */
export async function startChat(deps: ChatDeps, gate: FlowGate, request: StartChatRequest): Promise<ResponseJson> {
  const { flow, version, refusal } = gate.live
  if (refusal || !flow || !version) throw flowRefused(refusal ?? 'not_found', unknownFlow)

  const identity = request.user
    ? await verifyUser({ store: deps.store, key: deps.integrations.key }, flow.workspaceId, request.user, deps.now())
    : undefined
  const userId = identity?.userId
  // Starting over: the user's running conversation stays as it is, a new one begins.
  const going = userId && !request.startOver ? await usersConversation(deps, { flowId: flow.id, version, userId }) : undefined
  if (going?.response) return JSON.stringify({ ...going.response, identity: identity!.verdict } satisfies StartChatResponse)

  // A result id from another flow, one we never issued, or another user's, just starts a fresh result.
  const asked = request.resultId ? await deps.store.results.findForFlow(request.resultId, flow.id) : undefined
  const resumed = asked && (asked.userId === null || asked.userId === userId) ? asked : undefined
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
  const refused = identity?.verdict.status === 'refused' ? identity.verdict.reason : undefined
  const response: StartChatResponse = {
    ...outcome.response,
    // The site owner hears of a refused identity where every client shows a step's logs (the widget: flowchat:log).
    ...(refused ? { logs: [...(outcome.response.logs ?? []), identityRefusedLog(refused)] } : {}),
    sessionId,
    resultId,
    flowId: flow.id,
    publishedAt: version.publishedAt,
  }
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
    // What another device of this user resumes at: this step, until an answer moves it.
    user: userId ? { id: userId, lastStep: JSON.stringify(outcome.response) } : undefined,
    ...stepWrite(outcome, now, deps.sessionTtlSeconds),
  })
  return JSON.stringify({
    ...response,
    ...(identity ? { identity: identity.verdict } : {}),
    ...(going?.expired ? { restartedBecause: 'expired' } : {}),
  } satisfies StartChatResponse)
}
