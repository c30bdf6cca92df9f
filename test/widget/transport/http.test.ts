import { describe, expect, it } from 'vitest'
import { z } from 'zod/mini'
import { parseRetryAfter, requestJson } from '../../../src/widget/transport/http'

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z')
    expect(parseRetryAfter('7', now)).toBe(7000)
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000)
    expect(parseRetryAfter('soon', now)).toBeUndefined()
    expect(parseRetryAfter(null, now)).toBeUndefined()
  })
})

describe('requestJson', () => {
  const schema = z.object({ ok: z.boolean() })

  it('carries the status, error code and Retry-After of a rate-limited response', async () => {
    const fetch = async () =>
      new Response(JSON.stringify({ error: { code: 'rate_limited', message: 'Slow down' } }), {
        status: 429,
        headers: { 'Retry-After': '3' },
      })
    await expect(requestJson('/x', schema, { timeoutMs: 1000, fetch })).rejects.toMatchObject({
      kind: 'http',
      status: 429,
      code: 'rate_limited',
      message: 'Slow down',
      retryAfterMs: 3000,
      retryable: true,
    })
  })

  it('describes an error status without a contract error body', async () => {
    const fetch = async () => new Response('<h1>Bad gateway</h1>', { status: 502 })
    await expect(requestJson('/x', schema, { timeoutMs: 1000, fetch })).rejects.toMatchObject({
      kind: 'http',
      status: 502,
      message: 'The flow service answered with status 502',
    })
  })

  it('sends JSON with its content type and never cookies', async () => {
    let seen: RequestInit | undefined
    const fetch = async (_url: string, init?: RequestInit) => {
      seen = init
      return new Response('{"ok":true}')
    }
    await expect(requestJson('/x', schema, { method: 'POST', body: { a: 1 }, timeoutMs: 1000, fetch })).resolves.toEqual({ ok: true })
    expect(new Headers(seen?.headers).get('Content-Type')).toBe('application/json')
    expect(seen?.credentials).toBe('omit')
    expect(seen?.body).toBe('{"a":1}')
  })
})
