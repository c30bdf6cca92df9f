import type { ErrorCode } from '../../protocol/index'
import { EngineError, type EngineErrorCode } from '../engine/core/engine-error'
import { HttpError } from '../http/errors'

/**
 * The contract's HTTP error for each way the engine refuses a step: its code, the message when
 * the engine's own is not the one to send, and what `details` names.
 */
const HTTP_ERRORS: Record<EngineErrorCode, { code: ErrorCode; message?: string; path?: string; issue?: string }> = {
  session_ended: { code: 'session_expired', message: 'This conversation has ended; start a new chat to talk again.' },
  unknown_command: { code: 'invalid_body', path: 'message.command', issue: 'Unknown command' },
  invalid_reply: { code: 'invalid_body', path: 'message' },
  waiting_for_webhook: { code: 'conflict' },
  not_waiting_for_webhook: { code: 'conflict', message: 'No conversation of this result is waiting for a webhook.' },
  waiting_for_stream: { code: 'conflict' },
  not_waiting_for_stream: { code: 'conflict', message: 'This conversation is not waiting for a streamed answer.' },
  waiting_for_handoff: { code: 'conflict' },
  not_waiting_for_handoff: { code: 'conflict', message: 'This conversation is not waiting for this handoff.' },
  message_required: { code: 'invalid_body', path: 'message', issue: 'Required' },
}

export function httpErrorOf(error: EngineError): HttpError {
  const { code, message = error.message, path, issue = error.message } = HTTP_ERRORS[error.code]
  return new HttpError(code, message, path === undefined ? undefined : [{ path, message: issue }])
}

/** The service refusing a request for the reason the engine would (a session that has ended, …). */
export function refusal(code: EngineErrorCode): HttpError {
  return httpErrorOf(new EngineError(code))
}
