import { fetch as undiciFetch } from 'undici'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ClientAction } from '../../../../src/protocol/index'
import { type HttpTestServer, startHttpTestServer } from '../../../service/helpers/http-test-server'
import { BAD_URLS } from '../../content/bad-url-corpus'
import { memoryStore, publishedFlow, REMEMBER, settle, setupConversation, startResponse, textInput } from '../fake-client'

let server: HttpTestServer
beforeAll(async () => {
  server = await startHttpTestServer()
  await import('../../../../src/widget/chat/actions/client-actions')
})
afterAll(() => server.close())

/** A step whose HTTP request block runs in the browser, under the action's current or older name. */
const step = (url: string, type = 'httpRequestToExecute', request: Record<string, unknown> = { method: 'GET' }) =>
  startResponse({ clientSideActions: [{ type, [type]: { url, headers: {}, ...request }, expectsDedicatedReply: true } as ClientAction] })

describe('an HTTP request block run from the browser, to an address it must not call', () => {
  // Only addresses a browser would leave the page for: the relative ones resolve to the page's own site (http).
  const refused = BAD_URLS.filter((bad) => bad.outcome === 'dropped')

  it.each(refused.map((bad) => [bad.attack, bad.url] as const))('%s: not called, replied as a failure, reported', async (_attack, url) => {
    const { conversation, calls, events } = setupConversation({ start: step(url), replies: [{ input: textInput('in2') }] })
    conversation.start()
    await settle()
    expect(calls.continue.map((call) => call.message)).toEqual([
      JSON.stringify({ statusCode: 500, data: 'The address is not an http(s) URL' }),
    ])
    expect(events.of('flowchat:log')).toContainEqual(
      expect.objectContaining({ code: 'http-request-failed', status: 'error', source: 'widget' }),
    )
    expect(events.of('flowchat:error')).toEqual([expect.objectContaining({ code: 'http-request-failed', retryable: false })])
    expect(conversation.input.value?.input.id).toBe('in2')
  })

  it('takes the older action name (webhookToExecute) the same way', async () => {
    const { conversation, calls } = setupConversation({
      start: step('ftp://example.com/x', 'webhookToExecute'),
      replies: [{ input: textInput('in2') }],
    })
    conversation.start()
    await settle()
    expect(calls.continue.map((call) => call.message)).toEqual([
      JSON.stringify({ statusCode: 500, data: 'The address is not an http(s) URL' }),
    ])
  })
})

describe('an HTTP request block run from the browser, answered', () => {
  // The simulated DOM's fetch stands in for a browser's; Node's real one reaches the real server.
  beforeAll(() => void vi.stubGlobal('fetch', undiciFetch))
  afterAll(() => void vi.unstubAllGlobals())

  /** Runs one request block and returns what the flow got back. */
  async function run(url: string, request?: Record<string, unknown>) {
    const { conversation, calls, events } = setupConversation({
      start: step(url, 'httpRequestToExecute', request),
      replies: [{ input: textInput('in2') }],
    })
    conversation.start()
    await vi.waitFor(() => expect(calls.continue).toHaveLength(1))
    return { sent: JSON.parse(calls.continue[0]!.message as string) as unknown, events }
  }

  it('hands the flow the status and the JSON body, once', async () => {
    const { sent, events } = await run(`${server.origin}/json?value=${encodeURIComponent('{"greeting":"Hello"}')}`)
    expect(sent).toEqual({ statusCode: 200, data: { greeting: 'Hello' } })
    expect(events.of('flowchat:error')).toEqual([])
  })

  it('replaces an answer too long for continueChat with a failure the flow can map, so the chat goes on', async () => {
    // The echo of a 6,000-character body holds it twice (as text and as JSON): over 10,000 characters.
    const { sent, events } = await run(`${server.origin}/echo`, { method: 'POST', body: { text: 'x'.repeat(6_000) } })
    expect(sent).toEqual({ statusCode: 500, data: 'The answer was too large to hand to the flow (over 10000 characters as JSON)' })
    expect(events.of('flowchat:error')).toEqual([expect.objectContaining({ code: 'http-request-failed' })])
  })
})

describe('an HTTP request block run from the browser, in flight when a remembered conversation reloads', () => {
  beforeAll(() => void vi.stubGlobal('fetch', undiciFetch))
  afterAll(() => void vi.unstubAllGlobals())
  const remembered = { published: publishedFlow({ settings: REMEMBER }) }

  /**
   * A first page load whose request (to `/hang`, which never answers) reached the server, then
   * the reload: the second load of the same saved conversation, started.
   */
  async function reloadWhileInFlight(method: string) {
    const store = memoryStore()
    const hits = () => server.hits('/hang').filter((hit) => hit.method === method.toUpperCase()).length
    const first = setupConversation(
      { ...remembered, start: step(`${server.origin}/hang`, 'httpRequestToExecute', { method }) },
      { memory: store.memory },
    )
    first.conversation.start()
    await vi.waitFor(() => expect(hits()).toBe(1))
    // Saved before the request left: the step, and that its request (action 0) started.
    expect(store.saved?.stage).toMatchObject({
      tag: 'running-action',
      step: { clientSideActions: [{ type: 'httpRequestToExecute' }] },
      started: [0],
    })
    first.conversation.dispose() // the page goes away; the browser drops the request
    const second = setupConversation({ ...remembered, replies: [{ input: textInput('in2') }] }, { memory: store.memory })
    second.conversation.start()
    return { ...second, store, hits }
  }

  it.each(['POST', 'put', 'DELETE'])(
    '%s: not sent a second time; the flow gets the failure, the page hears it, the chat goes on',
    async (method) => {
      const { conversation, calls, events, store, hits } = await reloadWhileInFlight(method)
      await vi.waitFor(() => expect(calls.continue).toHaveLength(1))
      const reason = `The page was reloaded while this ${method} request was in flight, so it was not sent twice`
      expect(JSON.parse(calls.continue[0]!.message as string)).toEqual({ statusCode: 500, data: reason })
      expect(hits()).toBe(1)
      expect(events.of('flowchat:log')).toContainEqual(
        expect.objectContaining({ code: 'http-request-failed', status: 'error', description: expect.stringContaining(reason) }),
      )
      expect(events.of('flowchat:error')).toEqual([expect.objectContaining({ code: 'http-request-failed', retryable: false })])
      await settle()
      expect(conversation.input.value?.input.id).toBe('in2')
      // Its reply became the answer: the record no longer holds the step nor its start.
      expect(store.saved?.stage).toEqual(expect.objectContaining({ tag: 'waiting-input', input: expect.objectContaining({ id: 'in2' }) }))
      expect(store.saved?.stage).not.toHaveProperty('started')
    },
  )

  it.each(['GET', 'head', 'OPTIONS'])('%s, safe to repeat: sent again, and still recorded as started', async (method) => {
    const { conversation, calls, store, hits } = await reloadWhileInFlight(method)
    await vi.waitFor(() => expect(hits()).toBe(2))
    expect(calls.continue).toEqual([])
    expect(store.saved?.stage).toMatchObject({ started: [0] })
    conversation.dispose()
  })
})
