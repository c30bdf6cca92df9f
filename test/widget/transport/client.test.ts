import { describe, expect, it, vi } from 'vitest'
import { createFlowClient, type FetchLike } from '../../../src/widget/transport/index'

const publishedFlow = {
  publishedFlow: {
    id: 'pf1',
    flowId: 'f1',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-02T00:00:00.000Z',
    blockKinds: ['stream', 'text'],
  },
  version: '3',
}
const step = { messages: [{ id: 'm1', type: 'text', content: { plainText: 'Hi' } }], progress: 10 }

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } })

interface Call {
  url: string
  init: RequestInit | undefined
}

function recordingFetch(...responses: Array<Response | Error>) {
  const calls: Call[] = []
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, init })
    const next = responses.shift()
    if (!next) throw new Error('no more responses')
    if (next instanceof Error) throw next
    return next
  }
  return { fetch, calls }
}

const noSleep = async () => {}
const headersOf = (call: Call | undefined) => new Headers(call?.init?.headers)

describe('createFlowClient', () => {
  it('reads the published flow with the publishable token and migrateToLatestVersion', async () => {
    const { fetch, calls } = recordingFetch(json(publishedFlow))
    const client = createFlowClient({ apiHost: 'https://api.example/', token: 'pk_1', fetch })
    const result = await client.getPublishedFlow('my flow')
    expect(result.publishedFlow).toMatchObject({ id: 'pf1', blockKinds: ['stream', 'text'] })
    expect(calls[0]?.url).toBe('https://api.example/v1/flows/my%20flow/publishedFlow?migrateToLatestVersion=true')
    expect(headersOf(calls[0]).get('Authorization')).toBe('Bearer pk_1')
  })

  it('starts a chat on the chat host without the token', async () => {
    const start = { ...step, sessionId: 's1', resultId: 'r1', flowId: 'f1', publishedAt: 'x' }
    const { fetch, calls } = recordingFetch(json(start))
    const client = createFlowClient({ apiHost: 'https://api.example', chatApiHost: 'https://chat.example', token: 'pk', fetch })
    await client.startChat('f1', { prefilledVariables: { Name: 'Ada' } })
    expect(calls[0]?.url).toBe('https://chat.example/v1/flows/f1/startChat')
    expect(calls[0]?.init?.method).toBe('POST')
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual({ prefilledVariables: { Name: 'Ada' } })
    expect(headersOf(calls[0]).has('Authorization')).toBe(false)
  })

  it('retries a failed continueChat with the same Idempotency-Key', async () => {
    const { fetch, calls } = recordingFetch(
      new TypeError('Failed to fetch'),
      json({ error: { code: 'internal', message: 'boom' } }, 503),
      json(step),
    )
    const client = createFlowClient({ apiHost: 'https://api.example', fetch, sleep: noSleep })
    const result = await client.continueChat('s/1', 'hello', 'key-1')
    expect(result.progress).toBe(10)
    expect(calls).toHaveLength(3)
    expect(calls.map((call) => headersOf(call).get('Idempotency-Key'))).toEqual(['key-1', 'key-1', 'key-1'])
    expect(calls[0]?.url).toBe('https://api.example/v1/sessions/s%2F1/continueChat')
    expect(JSON.parse(String(calls[2]?.init?.body))).toEqual({ message: 'hello' })
  })

  it('gives up after the retries are spent with a typed, retryable error', async () => {
    const { fetch, calls } = recordingFetch(...Array.from({ length: 4 }, () => new TypeError('offline')))
    const client = createFlowClient({ apiHost: '', fetch, sleep: noSleep })
    const error = await client.continueChat('s1', 'hi', 'k').catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'TransportError', kind: 'network', retryable: true })
    expect(calls).toHaveLength(4)
  })

  it('does not retry a 4xx and surfaces the service error body', async () => {
    const { fetch, calls } = recordingFetch(json({ error: { code: 'session_expired', message: 'Session expired' } }, 410))
    const client = createFlowClient({ apiHost: '', fetch, sleep: noSleep })
    const error = await client.continueChat('s1', 'hi', 'k').catch((e: unknown) => e)
    expect(error).toMatchObject({ kind: 'http', status: 410, code: 'session_expired', message: 'Session expired', retryable: false })
    expect(calls).toHaveLength(1)
  })

  it('rejects a 200 body that does not match the contract, with readable issues', async () => {
    const { fetch } = recordingFetch(json({ publishedFlow: { id: 1 } }))
    const client = createFlowClient({ apiHost: '', fetch, sleep: noSleep })
    const error = await client.getPublishedFlow('f').catch((e: unknown) => e)
    expect(error).toMatchObject({ kind: 'invalid-response', retryable: false })
    expect((error as { details: unknown[] }).details.length).toBeGreaterThan(0)
  })

  it('validates the parts of the theme the core reads with the response, and passes its look to the chunks that validate it', async () => {
    const flowWith = (theme: unknown) => json({ publishedFlow: { ...publishedFlow.publishedFlow, theme } })
    const { fetch } = recordingFetch(
      flowWith({ chat: { hostAvatar: { isEnabled: 'yes' } } }),
      flowWith({ chat: { hostAvatar: { isEnabled: true }, hostBubbles: { backgroundColor: 12 } } }),
    )
    const client = createFlowClient({ apiHost: '', fetch, sleep: noSleep })
    const error = await client.getPublishedFlow('f', undefined, { fresh: true }).catch((e: unknown) => e)
    expect(error).toMatchObject({
      kind: 'invalid-response',
      details: [expect.objectContaining({ path: 'publishedFlow.theme.chat.hostAvatar.isEnabled' })],
    })
    const { publishedFlow: read } = await client.getPublishedFlow('f', undefined, { fresh: true })
    expect(read.theme?.chat).toEqual({ hostAvatar: { isEnabled: true }, hostBubbles: { backgroundColor: 12 } })
  })

  it("keeps a set-up refusal of the published flow for the page's life, and nothing else it failed with", async () => {
    const { fetch, calls } = recordingFetch(
      json({ error: { code: 'internal', message: 'x' } }, 503),
      json({ error: { code: 'flow_not_found', message: 'No flow with id nope.' } }, 404),
    )
    const client = createFlowClient({
      apiHost: '',
      token: 'fs_pk_x',
      fetch,
      sleep: noSleep,
      retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 },
    })
    // A busy service may answer next time: asked again.
    await expect(client.getPublishedFlow('nope')).rejects.toMatchObject({ status: 503 })
    expect(client.refusal('nope')).toBeUndefined()
    await expect(client.getPublishedFlow('nope')).rejects.toMatchObject({ status: 404, code: 'flow_not_found' })
    // No such flow: said again without asking, to this client and to another on the page (a launcher's chat).
    const other = createFlowClient({ apiHost: '', token: 'fs_pk_x', fetch })
    await expect(other.getPublishedFlow('nope')).rejects.toMatchObject({ code: 'flow_not_found' })
    expect(other.refusal('nope')).toMatchObject({ code: 'flow_not_found' })
    expect(calls).toHaveLength(2)
    // Another token is another set-up.
    expect(createFlowClient({ apiHost: '', token: 'fs_pk_y', fetch }).refusal('nope')).toBeUndefined()
  })

  it('rejects a body that is not JSON', async () => {
    const { fetch } = recordingFetch(new Response('<html>proxy error</html>', { status: 200 }))
    const client = createFlowClient({ apiHost: '', fetch, sleep: noSleep })
    await expect(client.getPublishedFlow('f')).rejects.toMatchObject({ kind: 'invalid-response' })
  })

  it('times out a request that never answers and aborts it', async () => {
    vi.useFakeTimers()
    try {
      let seenSignal: AbortSignal | undefined
      const fetch: FetchLike = (_url, init) =>
        new Promise((_resolve, reject) => {
          seenSignal = init?.signal ?? undefined
          seenSignal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
        })
      const client = createFlowClient({ apiHost: '', fetch, timeoutMs: 1000, retry: { retries: 0, baseDelayMs: 1, maxDelayMs: 1 } })
      const pending = client.getPublishedFlow('f').catch((e: unknown) => e)
      await vi.advanceTimersByTimeAsync(1000)
      expect(await pending).toMatchObject({ kind: 'timeout', retryable: true })
      expect(seenSignal?.aborted).toBe(true)
    } finally {
      vi.useRealTimers()
    }
  })

  it('reports a cancelled request as aborted and does not retry it', async () => {
    const controller = new AbortController()
    const fetch: FetchLike = (_url, init) =>
      new Promise((_resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
      })
    const spy = vi.fn(fetch)
    const client = createFlowClient({ apiHost: '', fetch: spy, sleep: noSleep })
    const pending = client.continueChat('s', 'm', 'k', controller.signal).catch((e: unknown) => e)
    controller.abort()
    expect(await pending).toMatchObject({ kind: 'aborted' })
    expect(spy).toHaveBeenCalledTimes(1)
  })
})
