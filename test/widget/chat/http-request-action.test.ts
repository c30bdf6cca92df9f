import { beforeAll, describe, expect, it } from 'vitest'
import type { ClientAction } from '../../../src/protocol/index'
import { BAD_URLS } from '../content/bad-url-corpus'
import { settle, setupConversation, startResponse, textInput } from './fake-client'

beforeAll(() => import('../../../src/widget/chat/client-actions'))

/** A step whose HTTP request block runs in the browser, under the action's current or older name. */
const step = (url: string, type = 'httpRequestToExecute') =>
  startResponse({ clientSideActions: [{ type, [type]: { url, method: 'GET', headers: {} }, expectsDedicatedReply: true } as ClientAction] })

describe('an HTTP request block run from the browser, to an address it must not call', () => {
  // Only addresses a browser would leave the page for: the relative ones resolve to the page's own site (http).
  const refused = BAD_URLS.filter((bad) => bad.outcome === 'dropped')

  it.each(refused.map((bad) => [bad.attack, bad.url] as const))('%s: not called, replied as a failure, reported', async (_attack, url) => {
    const { conversation, calls, events } = setupConversation({ start: step(url), replies: [{ input: textInput('in2') }] })
    conversation.start()
    await settle()
    expect(calls.continue.map((call) => call.message)).toEqual([JSON.stringify({ statusCode: 500, data: 'The address is not an http(s) URL' })])
    expect(events.of('flowchat:log')).toContainEqual(expect.objectContaining({ code: 'http-request-failed', status: 'error', source: 'widget' }))
    expect(events.of('flowchat:error')).toEqual([expect.objectContaining({ code: 'http-request-failed', retryable: false })])
    expect(conversation.input.value?.input.id).toBe('in2')
  })

  it('takes the older action name (webhookToExecute) the same way', async () => {
    const { conversation, calls } = setupConversation({ start: step('ftp://example.com/x', 'webhookToExecute'), replies: [{ input: textInput('in2') }] })
    conversation.start()
    await settle()
    expect(calls.continue.map((call) => call.message)).toEqual([JSON.stringify({ statusCode: 500, data: 'The address is not an http(s) URL' })])
  })
})
