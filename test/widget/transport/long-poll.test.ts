import { afterEach, describe, expect, it, vi } from 'vitest'
import { MAX_LISTEN_SECONDS } from '../../../src/protocol/chat'
import { createFlowClient, type FetchLike } from '../../../src/widget/transport/index'
import { listenForWebhook } from '../../../src/widget/transport/long-poll'

const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } })

afterEach(() => vi.useRealTimers())

describe("a webhook wait's long poll", () => {
  it('asks the chat host of the flow client, with the session and wait as path and query, and reads the step it brings', async () => {
    const urls: string[] = []
    const fetch: FetchLike = async (url) => {
      urls.push(url)
      return json({ status: 'continued', step: { messages: [{ id: 'm1', type: 'text', content: { plainText: 'Paid' } }] } })
    }
    const client = createFlowClient({ apiHost: 'https://api.example', chatApiHost: 'https://chat.example/', fetch })
    const answer = await listenForWebhook(client.chat, 's 1/x', 'w&1', new AbortController().signal)
    expect(urls).toEqual([`https://chat.example/v1/sessions/s%201%2Fx/listenForWebhook?waitId=w%261&timeoutSeconds=${MAX_LISTEN_SECONDS}`])
    expect(answer.step?.messages?.[0]?.id).toBe('m1')
  })

  it('gives the service the seconds it may hold the request on top of the time limit, then times out', async () => {
    vi.useFakeTimers()
    const fetch: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))))
    const client = createFlowClient({ apiHost: '', fetch, timeoutMs: 1_000 })
    let settled: unknown
    void listenForWebhook(client.chat, 's', 'w', new AbortController().signal, 5).catch((error: unknown) => (settled = error))
    await vi.advanceTimersByTimeAsync(5_999)
    expect(settled).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(settled).toMatchObject({ kind: 'timeout' })
  })

  it('refuses an answer that is not a wait', async () => {
    const client = createFlowClient({ apiHost: '', fetch: async () => json({ step: {} }) })
    await expect(listenForWebhook(client.chat, 's', 'w', new AbortController().signal)).rejects.toMatchObject({ kind: 'invalid-response' })
  })
})
