import { describe, expect, it } from 'vitest'
import { errorLine, finishLine, textLines } from '../../../src/protocol/stream'
import { type FetchLike, TransportError } from '../../../src/widget/transport/index'
import { streamMessage } from '../../../src/widget/transport/stream'
import { errorResponse, streamResponse } from './stream-responses'

function target(...responses: Array<Response | Error | (() => Response)>) {
  const calls: Array<{ url: string; init: RequestInit | undefined }> = []
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, init })
    const next = responses.shift()
    if (!next) throw new Error('no more responses')
    if (next instanceof Error) throw next
    return typeof next === 'function' ? next() : next
  }
  return { target: { chatApi: 'https://chat.example', sessionId: 's1', fetch }, calls }
}

const noSleep = async () => {}

async function collect(t: ReturnType<typeof target>['target'], options: { signal?: AbortSignal; idleTimeoutMs?: number } = {}) {
  const pieces: string[] = []
  let opened = 0
  const end = await streamMessage(t, {
    signal: options.signal ?? new AbortController().signal,
    sleep: noSleep,
    idleTimeoutMs: options.idleTimeoutMs,
    onOpen: () => opened++,
    onText: (text) => pieces.push(text),
  })
  return { end, pieces, opened }
}

describe('streamMessage', () => {
  it('posts {} and hands over each text piece as it arrives, ending at the finish part', async () => {
    const t = target(streamResponse(['f:{"messageId":"x"}\n0:"Hel', 'lo"\n', textLines(' world'), finishLine()]))
    const { end, pieces, opened } = await collect(t.target)
    expect(end).toEqual({ ok: true, finishReason: 'stop' })
    expect(pieces).toEqual(['Hello', ' world'])
    expect(opened).toBe(1)
    expect(t.calls[0]?.init).toMatchObject({ method: 'POST', body: '{}', credentials: 'omit' })
    expect(new Headers(t.calls[0]?.init?.headers).get('Content-Type')).toBe('application/json')
  })

  it('ends with the service log when the stream reports an error, keeping what came before', async () => {
    const log = { status: 'error', description: 'Provider stalled', context: 'While streaming AI' } as const
    const { end, pieces } = await collect(target(streamResponse([textLines('Half'), errorLine(log)])).target)
    expect(pieces).toEqual(['Half'])
    expect(end).toEqual({ ok: false, log })
  })

  it('tries a stream that fails to start once more (network, then 5xx), and no more', async () => {
    const ok = target(new TypeError('Failed to fetch'), streamResponse([textLines('ok'), finishLine()]))
    expect((await collect(ok.target)).pieces).toEqual(['ok'])
    expect(ok.calls).toHaveLength(2)

    const failing = target(errorResponse(502, 'upstream_failed'), errorResponse(502, 'upstream_failed'), streamResponse([finishLine()]))
    const error = await collect(failing.target).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ kind: 'http', status: 502, code: 'upstream_failed' })
    expect(failing.calls).toHaveLength(2)
  })

  it('does not retry a refusal (409: not waiting for a stream)', async () => {
    const t = target(errorResponse(409, 'conflict'), streamResponse([finishLine()]))
    await expect(collect(t.target)).rejects.toMatchObject({ kind: 'http', status: 409 })
    expect(t.calls).toHaveLength(1)
  })

  it('reports a connection lost mid-stream, or a body that ends without its last part, as a network failure (not retried)', async () => {
    const dropped = target(streamResponse([textLines('Hal')], 'error'), streamResponse([finishLine()]))
    const pieces: string[] = []
    const error = await streamMessage(dropped.target, {
      signal: new AbortController().signal,
      sleep: noSleep,
      onText: (text) => pieces.push(text),
    }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(TransportError)
    expect(error).toMatchObject({ kind: 'network' })
    expect(pieces).toEqual(['Hal'])
    expect(dropped.calls).toHaveLength(1)

    await expect(collect(target(streamResponse([textLines('cut')])).target)).rejects.toMatchObject({ kind: 'network' })
  })

  it('gives up on a stream that pauses longer than the idle limit', async () => {
    await expect(collect(target(streamResponse([textLines('a')], 'hang')).target, { idleTimeoutMs: 30 })).rejects.toMatchObject({
      kind: 'timeout',
    })
  })

  it('reports a broken line as an invalid response', async () => {
    await expect(collect(target(streamResponse(['0:not json\n'])).target)).rejects.toMatchObject({ kind: 'invalid-response' })
  })

  it('is cancelled by its signal, while reading as before the answer', async () => {
    const controller = new AbortController()
    const t = target(streamResponse([textLines('a')], 'hang'))
    const pieces: string[] = []
    const reading = streamMessage(t.target, {
      signal: controller.signal,
      sleep: noSleep,
      onText: (text) => {
        pieces.push(text)
        controller.abort()
      },
    })
    await expect(reading).rejects.toMatchObject({ kind: 'aborted' })
    expect((t.calls[0]?.init?.signal as AbortSignal | undefined)?.aborted).toBe(true)
    const before = new AbortController()
    before.abort()
    await expect(collect(target(streamResponse([finishLine()])).target, { signal: before.signal })).rejects.toMatchObject({
      kind: 'aborted',
    })
  })
})
