import { type FlowRefusal, flowRefused } from '../flows/live-flow'
import { HttpError } from '../http/errors'
import { refusal } from './engine-errors'

/**
 * Whether a running conversation takes another step (an answer, a webhook, a streamed answer):
 * its flow still serves it (the live-flow rule: neither archived nor closed), and the session
 * itself neither ended nor expired. The one check every step of a session goes through.
 */
export function checkSession(
  session: { id: string; completedAt: string | null; expiresAt: string },
  flowRefusal: FlowRefusal | undefined,
  now: Date,
): void {
  if (flowRefusal) throw flowRefused(flowRefusal, () => sessionNotFound(session.id))
  if (session.completedAt !== null) throw refusal('session_ended')
  if (now.getTime() >= Date.parse(session.expiresAt)) {
    throw new HttpError('session_expired', 'This chat session expired after a period of inactivity; start a new chat.')
  }
}

export function sessionNotFound(sessionId: string): HttpError {
  return new HttpError('session_not_found', `No chat session with id ${sessionId}.`)
}
