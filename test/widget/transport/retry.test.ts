import { describe, expect, it, vi } from 'vitest'
import { backoffDelay, sleep, TransportError, withRetry } from '../../../src/widget/transport/index'

const policy = { retries: 3, baseDelayMs: 100, maxDelayMs: 1000 }

describe('backoffDelay', () => {
  it('grows exponentially up to the ceiling, with jitter within the upper half', () => {
    expect(backoffDelay(0, policy, undefined, () => 0)).toBe(50)
    expect(backoffDelay(0, policy, undefined, () => 1)).toBe(100)
    expect(backoffDelay(2, policy, undefined, () => 1)).toBe(400)
    expect(backoffDelay(10, policy, undefined, () => 1)).toBe(1000)
  })

  it('waits at least what Retry-After asks, but not beyond 30 s', () => {
    expect(backoffDelay(0, policy, 5000, () => 0)).toBe(5000)
    expect(backoffDelay(0, policy, 600_000, () => 0)).toBe(30_000)
  })
})

describe('withRetry', () => {
  it('retries only retryable transport errors', async () => {
    const attempt = vi.fn(async (n: number) => {
      if (n < 2) throw new TransportError('http', 'busy', { status: 503 })
      return 'ok'
    })
    const waits: number[] = []
    await expect(withRetry(attempt, policy, { sleep: async (ms) => void waits.push(ms) })).resolves.toBe('ok')
    expect(attempt).toHaveBeenCalledTimes(3)
    expect(waits).toHaveLength(2)

    const refused = vi.fn(async () => {
      throw new TransportError('http', 'bad', { status: 400 })
    })
    await expect(withRetry(refused, policy, { sleep: async () => {} })).rejects.toMatchObject({ status: 400 })
    expect(refused).toHaveBeenCalledTimes(1)
  })
})

describe('sleep', () => {
  it('rejects as aborted and clears its timer when cancelled', async () => {
    vi.useFakeTimers()
    try {
      const controller = new AbortController()
      const pending = sleep(10_000, controller.signal).catch((e: unknown) => e)
      controller.abort()
      expect(await pending).toMatchObject({ kind: 'aborted' })
      expect(vi.getTimerCount()).toBe(0)
    } finally {
      vi.useRealTimers()
    }
  })
})
