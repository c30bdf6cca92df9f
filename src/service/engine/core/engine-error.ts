/**
 * Why the engine refuses a request: nothing changed, and the service answers with the contract's
 * HTTP error for the code (chat/engine-errors.ts maps every code, once).
 */
export type EngineErrorCode =
  /** Nothing is awaited: the conversation already ended. */
  | 'session_ended'
  /** A command no event of the flow handles. */
  | 'unknown_command'
  /** A reply the session cannot take (a client action's result that is not what it sent). */
  | 'invalid_reply'
  /** The session waits for an outside system's webhook; only commands are taken meanwhile. */
  | 'waiting_for_webhook'
  /** A webhook delivered to a session that waits for something else (or another webhook). */
  | 'not_waiting_for_webhook'
  /** A typed answer reached a session waiting for a streamed AI answer (the service resumes it instead). */
  | 'waiting_for_stream'
  /** A recorded AI answer for a session that does not wait for one. */
  | 'not_waiting_for_stream'
  /** The session waits for a person of the team (a `handoff` block); the visitor's messages go to them. */
  | 'waiting_for_handoff'
  /** A handoff came back to a session that waits for something else (or another handoff). */
  | 'not_waiting_for_handoff'
  /** No message, where only a streamed answer or a payment the chat cannot take is answered without one. */
  | 'message_required'

const MESSAGES: Record<EngineErrorCode, string> = {
  session_ended: 'The conversation has already ended',
  unknown_command: 'This flow has no command event with this name',
  invalid_reply: 'This reply is not what the conversation waits for',
  waiting_for_webhook: 'This conversation is waiting for an outside system; it goes on when that system calls back',
  not_waiting_for_webhook: 'No conversation of this result is waiting for a webhook',
  waiting_for_stream: 'The reply is still streaming; the conversation goes on once it has finished',
  not_waiting_for_stream: 'This conversation is not waiting for a streamed answer',
  waiting_for_handoff: 'This conversation is with a person; its messages go to them until the flow goes on',
  not_waiting_for_handoff: 'This conversation is not waiting for this handoff',
  message_required: 'The body needs a message: only a streamed answer or a payment this chat cannot take is answered without one.',
}

export class EngineError extends Error {
  constructor(
    readonly code: EngineErrorCode,
    message = MESSAGES[code],
  ) {
    super(message)
    this.name = 'EngineError'
  }
}
