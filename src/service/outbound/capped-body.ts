import { describeFailure, OutboundError, type OutboundFailure } from './outbound-errors'

/**
 * An answer's body within its byte cap and its call's deadline, read as a stream: a body that
 * declares more than the cap is refused before it is read, one that sends more is cut where it
 * passes it, and whatever stops it reaches the reader as an `OutboundError` saying why.
 */

export interface BodyScope {
  host: string
  deadline: AbortSignal
  timeoutMs: number
  /** Called once the body is read or cancelled, or with why it failed. */
  finish: (failure?: OutboundFailure) => void
}

/** The response with a body that errors once it passes `maxBytes` or the deadline. */
export function capped(response: Response, maxBytes: number, scope: BodyScope): Response {
  const declared = Number(response.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > maxBytes) {
    void response.body?.cancel().catch(() => undefined)
    throw tooLarge(maxBytes)
  }
  if (!response.body) {
    scope.finish()
    return response
  }
  let seen = 0
  const limit = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.byteLength
      if (seen > maxBytes) controller.error(tooLarge(maxBytes))
      else controller.enqueue(chunk)
    },
  })
  const body = mapErrors(response.body.pipeThrough(limit), scope)
  const wrapped = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
  Object.defineProperty(wrapped, 'url', { value: response.url })
  return wrapped
}

/** A stream whose failures are `OutboundError`s, so callers reading it see why it stopped. */
function mapErrors(stream: ReadableStream<Uint8Array>, scope: BodyScope): ReadableStream<Uint8Array> {
  const reader = stream.getReader()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read()
        if (done) {
          controller.close()
          scope.finish()
        } else controller.enqueue(value)
      } catch (error) {
        const failure =
          error instanceof OutboundError
            ? error
            : describeFailure(error, scope.host, { aborted: scope.deadline.aborted, timeoutMs: scope.timeoutMs })
        scope.finish(failure.failure)
        controller.error(failure)
      }
    },
    cancel: (reason) => {
      scope.finish()
      return reader.cancel(reason)
    },
  })
}

export function tooLarge(maxBytes: number): OutboundError {
  return new OutboundError('too-large', `The answer is larger than ${maxBytes} bytes`)
}
