import { describe, expect, it } from 'vitest'
import { describeFailure, isRejection, isSessionGone } from '../../../../src/widget/chat/events/failures'
import { ENGLISH } from '../../../../src/widget/i18n/strings'
import { TransportError } from '../../../../src/widget/transport/index'

const http = (status: number, code: string, message: string) => new TransportError('http', message, { status, code })

describe('describeFailure', () => {
  it("shows a 4xx refusal in the service's own words", () => {
    expect(describeFailure(http(400, 'invalid_body', 'Message is too long'))).toEqual({
      detail: { code: 'service-error', message: 'Message is too long', status: 400, serviceCode: 'invalid_body', retryable: false },
      words: { text: 'Message is too long' },
    })
  })

  it('never shows the text of a 5xx or a rate limit, which may be internal', () => {
    const internal = describeFailure(http(500, 'internal', 'TypeError at db.ts:12'))
    expect([internal.detail.message, internal.words.text]).toEqual([ENGLISH.failService, ENGLISH.failService])
    expect(internal.words.id).toBe('failService')
    expect(describeFailure(http(429, 'rate_limited', 'bucket 7 empty'))).toMatchObject({
      detail: { retryable: true, message: expect.not.stringContaining('bucket') },
      words: { id: 'failService' },
    })
  })

  it('names network, timeout, unreadable and expired-session failures', () => {
    expect(describeFailure(new TransportError('network', 'x'))).toMatchObject({
      detail: { code: 'network-error' },
      words: { id: 'failNetwork' },
    })
    expect(describeFailure(new TransportError('timeout', 'x'))).toMatchObject({ detail: { code: 'timeout' }, words: { id: 'failTimeout' } })
    expect(describeFailure(new TransportError('invalid-response', 'x'))).toMatchObject({
      detail: { code: 'invalid-response' },
      words: { id: 'failInvalid' },
    })
    expect(describeFailure(http(410, 'session_expired', 'gone'))).toMatchObject({
      detail: { code: 'session-expired', message: expect.stringMatching(/expired/) },
      words: { id: 'failExpired' },
    })
    expect(describeFailure(new Error('boom'))).toMatchObject({
      detail: { code: 'service-error', retryable: true },
      words: { id: 'failUnknown' },
    })
  })

  it('calls a refused token or origin, an unknown flow and an unpublished one set-up mistakes: what to fix for the owner, plain words for the visitor', () => {
    const visitor = { text: 'This chat is not set up yet.', id: 'failNotSetUp' }
    for (const [status, serviceCode, reason, code, fix] of [
      [401, 'unauthorized', 'Unknown or revoked token.', 'not-set-up', "Check the chat's token"],
      [403, 'origin_not_allowed', 'Origin https://shop.example is not allowed', 'not-set-up', "Add this page's origin"],
      [404, 'flow_not_found', 'No flow with id x.', 'flow-not-found', "Check the chat's flow"],
      [404, 'not_published', 'This flow has not been published yet.', 'flow-not-published', 'Publish the flow.'],
    ] as const) {
      expect(describeFailure(http(status, serviceCode, reason))).toEqual({
        detail: {
          code,
          message: expect.stringMatching(new RegExp(`^This chat is not set up: ${reason.replace('.', '\\.')} ${fix}`)),
          status,
          serviceCode,
          retryable: false,
          details: reason,
        },
        words: visitor,
      })
    }
    // Any other refusal still speaks for itself.
    expect(describeFailure(http(404, 'not_found', 'No such thing.'))).toMatchObject({
      detail: { code: 'service-error', message: 'No such thing.' },
      words: { text: 'No such thing.' },
    })
  })
})

describe('classification', () => {
  it('tells an expired session from a refused answer', () => {
    expect(isSessionGone(http(404, 'session_not_found', ''))).toBe(true)
    expect(isRejection(http(404, 'session_not_found', ''))).toBe(false)
    expect(isRejection(http(413, 'payload_too_large', ''))).toBe(true)
    expect(isRejection(http(503, 'internal', ''))).toBe(false)
    expect(isRejection(new TransportError('network', ''))).toBe(false)
  })
})
