import type { ChatStepResult } from '../../../protocol/index'
import type { HandoffResume } from '../../engine/core/types'
import { HttpError } from '../../http/errors'
import { log } from '../../observability/log'
import type { HandoffRecord } from '../../store/handoffs-repository'
import type { ChatDeps } from '../chat-deps'
import { SessionTurn } from '../turn'

/**
 * A handed-over conversation comes back to its flow, exactly as a wait-for-webhook block's does
 * (chat/webhook-service.ts): whoever ends it (the person, the visitor leaving, the deadline's
 * sweep) first wins the handoff's conditional UPDATE, then the service runs the session's next
 * step itself, under the session's lease, with the variables the person set; the step's response
 * is stored with the session under an idempotency key no client can send, and handed to the
 * visitor's widget, on whichever process it listens, as the last event (`continued`). A process
 * stopping between the two leaves the handoff ended without `continued`: the sweep goes on with
 * it later, and the stored step makes the second run the same step.
 */

/** Idempotency keys sent by clients are visible ASCII: this one has a space, so it is ours only. */
const stepKey = (handoffId: string) => `handoff ${handoffId}`

export type Ending = { kind: 'end'; status: 'ended' | 'left' } | { kind: 'timeout' }

/**
 * Ends an open handoff (`timeout`: a waiting one past its deadline) and goes on with its flow.
 * Undefined when it was not open (someone else ended it first, or a person claimed it in time).
 */
export async function endHandoff(deps: ChatDeps, handoffId: string, ending: Ending): Promise<HandoffRecord | undefined> {
  const status = ending.kind === 'timeout' ? 'unanswered' : ending.status
  const ended = await deps.store.handoffs.append({
    handoffId,
    change: ending,
    type: 'status',
    body: { status },
    now: deps.now().toISOString(),
  })
  if (!ended) return undefined
  await goOn(deps, ended.record)
  return ended.record
}

/** Runs (or finds) the flow's step after an ended handoff, and records it as the `continued` event, once. */
export async function goOn(deps: ChatDeps, handoff: HandoffRecord): Promise<void> {
  const now = deps.now().toISOString()
  await deps.store.webhooks.queueHandoffDelivery(handoff.id, 'handoff.ended', now)
  const outcome: HandoffResume['outcome'] = handoff.status === 'ended' ? 'ended' : handoff.status === 'left' ? 'left' : 'unanswered'
  let step: ChatStepResult
  try {
    const turn = await SessionTurn.open(deps, { sessionId: handoff.sessionId, idempotencyKey: stepKey(handoff.id) })
    try {
      const json = await turn.advance({ kind: 'handoff', resume: { handoffId: handoff.id, outcome, variables: handoff.variables } })
      step = JSON.parse(json) as ChatStepResult
    } finally {
      await turn.close()
    }
  } catch (error) {
    // The session is gone (purged, expired, its flow closed) or moved on by a command: the
    // visitor's widget still hears that the live part is over, with why.
    if (!(error instanceof HttpError) || error.status >= 500) throw error
    log().info({ handoff: handoff.id, code: error.code }, 'a handed-over conversation could not go on with its flow')
    step = { messages: [], logs: [{ status: 'error', description: `The conversation could not go on: ${error.message}` }] }
  }
  await deps.store.handoffs.append({ handoffId: handoff.id, change: { kind: 'continued' }, type: 'continued', body: { step }, now })
}
