import { fetch as undiciFetch } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TransportError } from '../../../src/widget/transport/index'
import { sendVisitorRequest, type VisitorRequest } from '../../../src/widget/transport/visitor-request'
import { type HttpTestServer, startHttpTestServer } from '../../service/helpers/http-test-server'

// A real server on loopback, reached with Node's fetch (the browser's is exercised in Chromium).
const fetch = undiciFetch as unknown as typeof globalThis.fetch
let server: HttpTestServer
beforeAll(async () => {
  server = await startHttpTestServer()
})
afterAll(() => server.close())

const send = (
  request: Partial<VisitorRequest> & { url: string },
  options: { timeoutMs?: number; maxBytes?: number; signal?: AbortSignal } = {},
) =>
  sendVisitorRequest(
    { method: 'GET', headers: {}, ...request },
    { signal: new AbortController().signal, timeoutMs: 5_000, fetch, ...options },
  )

describe("an HTTP request block's request from the visitor's browser", () => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('%s sends a non-string body as JSON, with its headers', async (method) => {
    const result = await send({ url: `${server.origin}/echo`, method, headers: { 'X-Key': 'k' }, body: { name: 'Ada', tags: [1, 2] } })
    expect(result.statusCode).toBe(200)
    expect(result.data).toMatchObject({
      method,
      body: '{"name":"Ada","tags":[1,2]}',
      headers: expect.objectContaining({ 'x-key': 'k', 'content-type': 'application/json' }),
    })
    expect(result.failure).toBeUndefined()
  })

  it('sends a string body as it is, under the content type the block chose', async () => {
    const result = await send({ url: `${server.origin}/echo`, method: 'post', headers: { 'Content-Type': 'text/plain' }, body: 'a=1&b=2' })
    expect(result.data).toMatchObject({
      method: 'POST',
      body: 'a=1&b=2',
      headers: expect.objectContaining({ 'content-type': 'text/plain' }),
    })
  })

  it.each(['GET', 'HEAD'])('%s sends no body at all', async (method) => {
    await send({ url: `${server.origin}/echo?x=1`, method, body: { ignored: true } })
    const last = server.hits('/echo').at(-1)!
    expect(last).toMatchObject({ method, body: '' })
    expect(last.headers['content-type']).toBeUndefined()
  })

  it('gives an error status with its body: the flow maps it (no failure)', async () => {
    expect(await send({ url: `${server.origin}/status/502` })).toEqual({ statusCode: 502, data: { error: 'status 502' } })
  })

  it('gives text that is not JSON as text', async () => {
    expect((await send({ url: `${server.origin}/invalid-json` })).data).toBe('{"not": json')
  })

  it('stops reading past the size cap, declared or streamed, and answers 500 with the reason', async () => {
    for (const path of ['/big?mb=3', '/big-declared?mb=3']) {
      const result = await send({ url: `${server.origin}${path}` }, { maxBytes: 1024 * 1024 })
      expect(result).toEqual({
        statusCode: 500,
        data: 'The answer was larger than 1048576 bytes',
        failure: 'The answer was larger than 1048576 bytes',
      })
    }
  })

  it('gives up at the timeout, whether the answer never starts or never ends', async () => {
    for (const path of ['/hang', '/slow-body']) {
      const result = await send({ url: `${server.origin}${path}` }, { timeoutMs: 300 })
      expect(result).toMatchObject({ statusCode: 500, failure: 'No answer within 0.3 s' })
    }
  })

  it('answers 500 when nothing listens there', async () => {
    const result = await send({ url: 'http://127.0.0.1:9/' })
    expect(result.statusCode).toBe(500)
    expect(result.failure).toMatch(/^The request failed \(network, CORS or an invalid request\)/)
  })

  it('answers 500 for a header the fetch standard refuses to send', async () => {
    const result = await send({ url: `${server.origin}/echo`, headers: { 'Bad Header': 'x' } })
    expect(result).toMatchObject({ statusCode: 500, failure: expect.stringMatching(/^The request failed/) })
  })

  it('rejects as aborted when the chat goes away meanwhile (nothing is replied)', async () => {
    const controller = new AbortController()
    const pending = send({ url: `${server.origin}/hang` }, { signal: controller.signal })
    controller.abort()
    await expect(pending).rejects.toBeInstanceOf(TransportError)
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' })
  })
})
