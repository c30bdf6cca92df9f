import { MAX_HTTP_RESPONSE_BYTES } from '../../../../protocol/http-request-limits'
import { type CallFailure, callFailure, HTTP_CALL_FAILURES, type HttpCaller, type HttpCallFailure } from '../../core/ports'
import type { HttpResponseData } from '../../core/types'
import type { BuiltRequest } from './request-builder'

export interface HttpCallResult {
  response: HttpResponseData
  /** Set when no answer came back (refused, timed out, too large, unreachable, over a cap): why. */
  failure?: string
  kind?: HttpCallFailure
}

/**
 * Makes the call through the outbound guard. Never throws: every failure becomes the answer
 * builders give flows for it (integrations.md 1.5), so mapping runs and the walk goes on.
 */
export async function callHttp(client: HttpCaller, request: BuiltRequest): Promise<HttpCallResult> {
  try {
    const answer = await client.request({
      url: request.url,
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      timeoutMs: request.timeoutSeconds * 1000,
      maxResponseBytes: MAX_HTTP_RESPONSE_BYTES,
    })
    return { response: { statusCode: answer.status, data: parseBody(answer.body.toString('utf8')) } }
  } catch (fault) {
    const error = callFailure(fault, HTTP_CALL_FAILURES)
    if (!error) throw fault
    return { response: failureResponse(error, request.timeoutSeconds), failure: error.message, kind: error.failure }
  }
}

function failureResponse(error: CallFailure<HttpCallFailure>, timeoutSeconds: number): HttpResponseData {
  switch (error.failure) {
    case 'timeout':
      return { statusCode: 408, data: { message: `Request timed out. (${timeoutSeconds}s)` } }
    case 'refused':
    case 'invalid-url':
      return { statusCode: 400, data: { message: `Security validation failed: ${error.message}` } }
    case 'invalid-request':
      return { statusCode: 400, data: { message: error.message } }
    case 'limit':
      return { statusCode: 429, data: { message: error.message } }
    default:
      return { statusCode: 500, data: { message: error.message } }
  }
}

/** JSON when it parses, the text otherwise. */
export function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}
