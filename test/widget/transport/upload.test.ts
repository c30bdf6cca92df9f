import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChatEndpoint, TransportError } from '../../../src/widget/transport/index'
import { uploadFile } from '../../../src/widget/transport/upload'

/** What the test server answers each session with: status, body and headers (any origin, as the service's chat routes). */
const ANSWERS: Record<string, { status: number; body: string; headers?: Record<string, string> }> = {
  ok: {
    status: 200,
    body: JSON.stringify({ url: 'https://files.example/v1/files/abc/photo.png', name: 'photo.png', size: 3, type: 'image/png' }),
  },
  big: {
    status: 413,
    body: JSON.stringify({ error: { code: 'payload_too_large', message: 'Files may be up to 10 MB.' } }),
    headers: { 'Retry-After': '7', 'Access-Control-Expose-Headers': 'Retry-After' },
  },
  odd: { status: 200, body: '{"url": 3}' },
  html: { status: 502, body: '<h1>Bad gateway</h1>' },
}

interface Received {
  url: string
  type: string | undefined
  body: string
}

let chat: ChatEndpoint
const received: Received[] = []
const server = createServer((request: IncomingMessage, response: ServerResponse) => {
  const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'Content-Type' }
  if (request.method === 'OPTIONS') return response.writeHead(204, cors).end()
  const chunks: Buffer[] = []
  request.on('data', (chunk: Buffer) => chunks.push(chunk))
  request.on('end', () => {
    received.push({ url: request.url!, type: request.headers['content-type'], body: Buffer.concat(chunks).toString() })
    const session = /\/v1\/sessions\/([^/]+)\/uploads/.exec(request.url!)?.[1] ?? ''
    const answer = ANSWERS[session] ?? ANSWERS.html!
    response.writeHead(answer.status, { ...cors, 'Content-Type': 'application/json', ...answer.headers }).end(answer.body)
  })
})

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  chat = { chatApi: `http://127.0.0.1:${port}`, fetch: globalThis.fetch, timeoutMs: 5_000 }
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const photo = () => new File(['png'], 'my photo.png', { type: 'image/png' })
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  )

describe('uploadFile', () => {
  it("posts the file's bytes to the session's uploads on the conversation's chat API, its name in the query", async () => {
    const file = await uploadFile(chat, 'ok', photo(), () => {}, new AbortController().signal)
    expect(file).toEqual({ url: 'https://files.example/v1/files/abc/photo.png', name: 'photo.png', size: 3, type: 'image/png' })
    expect(received.at(-1)).toEqual({ url: '/v1/sessions/ok/uploads?name=my%20photo.png', type: 'image/png', body: 'png' })
  })

  it("reads a refusal as every other answer: a TransportError with the service's code, words and Retry-After", async () => {
    const error = await failure(uploadFile(chat, 'big', photo(), () => {}, new AbortController().signal))
    expect(error).toBeInstanceOf(TransportError)
    expect(error).toMatchObject({
      kind: 'http',
      status: 413,
      code: 'payload_too_large',
      message: 'Files may be up to 10 MB.',
      retryAfterMs: 7_000,
      retryable: false,
    })
    // A body that is no error body still says the status, and a 5xx may be tried again.
    expect(await failure(uploadFile(chat, 'html', photo(), () => {}, new AbortController().signal))).toMatchObject({
      kind: 'http',
      status: 502,
      retryable: true,
    })
  })

  it('fails an answer it cannot read as invalid-response, and a cancelled upload as aborted', async () => {
    expect(await failure(uploadFile(chat, 'odd', photo(), () => {}, new AbortController().signal))).toMatchObject({
      kind: 'invalid-response',
    })
    const cancelled = new AbortController()
    cancelled.abort()
    expect(await failure(uploadFile(chat, 'ok', photo(), () => {}, cancelled.signal))).toMatchObject({ kind: 'aborted' })
  })
})
