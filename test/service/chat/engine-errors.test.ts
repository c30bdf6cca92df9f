import { describe, expect, it } from 'vitest'
import { httpErrorOf } from '../../../src/service/chat/engine-errors'
import { EngineError, type EngineErrorCode } from '../../../src/service/engine/index'

/** What the client gets for each way the engine refuses a step: nothing changed, a 4xx says why. */
const EXPECTED: Record<EngineErrorCode, { status: number; code: string; path?: string }> = {
  session_ended: { status: 410, code: 'session_expired' },
  unknown_command: { status: 400, code: 'invalid_body', path: 'message.command' },
  invalid_reply: { status: 400, code: 'invalid_body', path: 'message' },
  waiting_for_webhook: { status: 409, code: 'conflict' },
  not_waiting_for_webhook: { status: 409, code: 'conflict' },
  waiting_for_stream: { status: 409, code: 'conflict' },
  not_waiting_for_stream: { status: 409, code: 'conflict' },
  waiting_for_handoff: { status: 409, code: 'conflict' },
  not_waiting_for_handoff: { status: 409, code: 'conflict' },
  message_required: { status: 400, code: 'invalid_body', path: 'message' },
}

describe('engine refusals as HTTP errors', () => {
  for (const [engineCode, expected] of Object.entries(EXPECTED) as [EngineErrorCode, (typeof EXPECTED)[EngineErrorCode]][]) {
    it(`${engineCode} answers ${expected.status} ${expected.code}`, () => {
      const error = httpErrorOf(new EngineError(engineCode, 'The reason'))
      expect(error.status).toBe(expected.status)
      expect(error.code).toBe(expected.code)
      expect(error.status).toBeLessThan(500)
      if (expected.path) expect(error.details).toEqual([{ path: expected.path, message: expect.any(String) }])
      else expect(error.details).toBeUndefined()
    })
  }

  it("sends the engine's reason for a reply it cannot take, naming the message", () => {
    const error = httpErrorOf(new EngineError('invalid_reply', 'Provided response is not valid JSON'))
    expect(error.message).toBe('Provided response is not valid JSON')
    expect(error.details).toEqual([{ path: 'message', message: 'Provided response is not valid JSON' }])
  })
})
