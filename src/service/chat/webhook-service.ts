import { type ChatStepResult, MAX_LISTEN_SECONDS, type WebhookWaitResponse } from '../../protocol/index'
import type { SessionState } from '../engine/core/types'
import { HttpError } from '../http/errors'
import type { RequestContext } from '../observability/request-context'
import type { ChatDeps } from './chat-deps'
import type { SessionGate } from './chat-gate'
import { refusal } from './engine-errors'
import { SessionTurn } from './turn'

/**
 * Wait-for-webhook blocks, service side. An outside system's call runs the waiting session's
 * next step right away (a step like any other: its lease, its one write) and stores that step's
 * response with the session under an idempotency key of the wait that no client can send, so
 * the widget, whenever and from whichever process it asks, gets the very step the flow produced.
 */

/** Idempotency keys sent by clients are visible ASCII: this one has a space, so it is ours only. */
const stepKey = (waitId: string) => `webhook ${waitId}`

export async function deliverResultWebhook(
  deps: ChatDeps,
  input: { resultId: string; body: unknown; request?: RequestContext },
): Promise<{ sessionId: string; waitId: string }> {
  const waiting = await deps.store.sessions.findWaitingForWebhook(input.resultId)
  const awaiting = (waiting?.state as SessionState | undefined)?.awaiting
  if (!waiting || awaiting?.kind !== 'webhook') throw refusal('not_waiting_for_webhook')
  const { waitId } = awaiting
  const turn = await SessionTurn.open(deps, { sessionId: waiting.id, idempotencyKey: stepKey(waitId), request: input.request })
  try {
    await turn.advance({ kind: 'webhook', waitId, body: input.body })
  } finally {
    await turn.close()
  }
  deps.webhookWaits.notify(waiting.id, waitId)
  return { sessionId: waiting.id, waitId }
}

/**
 * The long poll of a waiting widget, once the gate admitted it: `continued` with the stored step,
 * or `waiting` after the timeout. The stored step is looked for first: the webhook may have moved
 * the session on since the gate read it.
 */
export async function listenForWebhook(
  deps: ChatDeps,
  gate: SessionGate,
  input: { waitId: string; timeoutSeconds: number; signal?: AbortSignal },
): Promise<WebhookWaitResponse> {
  const { session } = gate
  if (!session) throw gate.notFound()
  const lookup = async (): Promise<WebhookWaitResponse | undefined> => {
    const stored = await deps.store.chatSteps.findIdempotentResponse(session.id, stepKey(input.waitId))
    return stored && { status: 'continued', step: JSON.parse(stored.response) as ChatStepResult }
  }
  const found = await lookup()
  if (found) return found
  const awaiting = (session.state as SessionState).awaiting
  if (awaiting?.kind !== 'webhook' || awaiting.waitId !== input.waitId) {
    if (session.completedAt !== null) throw refusal('session_ended')
    throw new HttpError('not_found', 'This conversation is not waiting for this webhook.')
  }
  const timeoutMs = Math.min(Math.max(input.timeoutSeconds, 0), MAX_LISTEN_SECONDS) * 1000
  const answer = await deps.webhookWaits.wait({ sessionId: session.id, waitId: input.waitId }, lookup, {
    timeoutMs,
    ...(input.signal ? { signal: input.signal } : {}),
  })
  return answer ?? { status: 'waiting' }
}
