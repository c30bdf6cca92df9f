import type { HandoffEvent } from '../../../protocol/handoff'
import { HttpError } from '../../http/errors'
import type { HandoffRecord } from '../../store/handoffs-repository'
import type { ChatDeps } from '../chat-deps'
import type { SessionGate } from '../chat-gate'
import { endHandoff } from './handoff-resume'
import { apiEvent } from './handoff-views'

/**
 * The visitor's side of a handed-over conversation, once the visitor gate admitted the request
 * for its session (routes/chat-gate.ts): the session id is the secret, so a session reaches its
 * own handoffs only, and another session's handoff id is answered as one that does not exist.
 */

/** The session's handoff (the one named, or its latest). */
export async function sessionHandoff(deps: ChatDeps, gate: SessionGate, handoffId?: string): Promise<HandoffRecord> {
  const { session } = gate
  if (!session) throw gate.notFound()
  const handoff = await deps.store.handoffs.findForSession(session.id, handoffId)
  if (!handoff) throw new HttpError('not_found', 'This conversation has no handoff to a person.')
  return handoff
}

/** A visitor's line: stored once per Idempotency-Key; refused once the conversation is over. */
export async function visitorMessage(deps: ChatDeps, handoff: HandoffRecord, text: string, idempotencyKey?: string): Promise<HandoffEvent> {
  await deps.handoffs.messages.consume(`handoff-visitor:${handoff.sessionId}`)
  const appended = await deps.store.handoffs.append({
    handoffId: handoff.id,
    change: { kind: 'message' },
    type: 'message',
    body: { author: 'visitor', text },
    now: deps.now().toISOString(),
    ...(idempotencyKey ? { idempotencyKey } : {}),
  })
  if (!appended) throw over()
  const event = apiEvent(appended.event)
  if (appended.replayed && (event.type !== 'message' || event.text !== text)) {
    throw new HttpError('conflict', 'This Idempotency-Key was already used with a different message.')
  }
  return event
}

/** The visitor typing, or no longer: told to the person at once, never stored. */
export async function visitorTyping(deps: ChatDeps, handoff: HandoffRecord, typing: boolean): Promise<void> {
  await deps.handoffs.messages.consume(`handoff-typing:${handoff.sessionId}`)
  if (handoff.status !== 'waiting' && handoff.status !== 'live') throw over()
  await deps.handoffs.hub.typing(handoff.id, handoff.workspaceId, { author: 'visitor', typing })
}

/** The visitor leaves the queue or the conversation: the flow goes on by the "no one answered" exit. Idempotent. */
export async function visitorLeave(deps: ChatDeps, handoff: HandoffRecord): Promise<HandoffRecord> {
  return (await endHandoff(deps, handoff.id, { kind: 'end', status: 'left' })) ?? (await deps.store.handoffs.find(handoff.id)) ?? handoff
}

const over = () => new HttpError('conflict', 'This conversation with a person is over; the flow has gone on.')
