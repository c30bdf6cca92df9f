import { RETRY_POLICY } from '../../protocol/time-limits'
import { isTransportError, TransportError } from './errors'

export interface RetryPolicy {
  /** Attempts after the first one. */
  retries: number
  baseDelayMs: number
  maxDelayMs: number
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = RETRY_POLICY

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>

/** A timer that rejects with an `aborted` TransportError (and frees the timer) when cancelled. */
export const sleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(new TransportError('aborted', 'Cancelled'))
    const onAbort = () => {
      clearTimeout(timer)
      reject(new TransportError('aborted', 'Cancelled'))
    }
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      },
      Math.max(0, ms),
    )
    signal?.addEventListener('abort', onAbort, { once: true })
  })

/**
 * Exponential backoff with "equal jitter" (half fixed, half random) so many widgets that lost the
 * service at the same moment do not come back in lockstep; a `Retry-After` from the service wins
 * when it asks for longer.
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, retryAfterMs?: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt)
  const delay = ceiling / 2 + (random() * ceiling) / 2
  if (retryAfterMs === undefined) return delay
  return Math.min(Math.max(delay, retryAfterMs), RETRY_POLICY.maxRetryAfterMs)
}

/** Runs `attempt` until it succeeds, fails for good, or the retries are spent. */
export async function withRetry<T>(
  attempt: (n: number) => Promise<T>,
  policy: RetryPolicy,
  options: { signal?: AbortSignal; sleep?: Sleep } = {},
): Promise<T> {
  const wait = options.sleep ?? sleep
  for (let n = 0; ; n++) {
    try {
      return await attempt(n)
    } catch (error) {
      const again = isTransportError(error) && error.retryable && n < policy.retries
      if (!again || options.signal?.aborted) throw error
      await wait(backoffDelay(n, policy, error.retryAfterMs), options.signal)
    }
  }
}
