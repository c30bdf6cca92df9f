import { describe, expect, test } from 'vitest'
import {
  ACTION_PAYLOADS,
  chatInputSchema,
  chatStepResultSchema,
  clientActionSchema,
  continueChatRequestSchema,
  errorBodySchema,
  inputOptionsSchema,
  isPrefilledValue,
  MAX_ATTACHED_FILES,
  MAX_COMMAND_LENGTH,
  MAX_MESSAGE_LENGTH,
  startChatRequestSchema,
  startChatResponseSchema,
  textContentSchema,
  videoContentSchema,
  waitSchema,
  webhookWaitResponseSchema,
} from '../../src/protocol/index'

describe('chat step result', () => {
  test('the spec example shape parses', () => {
    const body = {
      lastMessageNewFormat: '+33 6 12 34 56 78',
      messages: [{ id: 'm1', type: 'text', content: { html: '<p>Hi</p>', richText: [], plainText: 'Hi' } }],
      input: {
        id: 'i1',
        outgoingEdgeId: 'e1',
        type: 'text input',
        options: { labels: { placeholder: 'Type…', button: 'Send' }, variableId: 'v1', isLong: false },
        prefilledValue: 'Ada',
        runtimeOptions: { paymentIntentSecret: '<PAYMENT_INTENT_SECRET>', amountLabel: '10 €', publicKey: '<PUBLIC_KEY>' },
      },
      clientSideActions: [
        {
          type: 'scriptToExecute',
          scriptToExecute: { content: 'return 1', args: [{ id: 'v1', value: 'x' }] },
          lastBubbleBlockId: 'm1',
          expectsDedicatedReply: true,
        },
      ],
      logs: [{ status: 'info', description: 'Block type Webhook is not supported', details: { blockId: 'b' } }],
      dynamicTheme: { hostAvatarUrl: 'https://example.com/a.png', guestAvatarUrl: 'https://example.com/b.png' },
      progress: 42.5,
    }
    expect(chatStepResultSchema.parse(body)).toEqual(body)
  })

  test('message, input and action types beyond the known ones still parse', () => {
    const body = {
      messages: [{ id: 'm', type: 'hologram', content: { beam: true } }],
      input: { id: 'i', type: 'payment input', options: { currency: 'EUR' } },
      clientSideActions: [{ type: 'confetti', confetti: { colors: 3 } }],
    }
    const parsed = chatStepResultSchema.parse(body)
    expect(parsed.messages?.[0]?.type).toBe('hologram')
    expect(parsed.clientSideActions?.[0]).toMatchObject({ type: 'confetti', confetti: { colors: 3 } })
  })

  test('a message without an id does not parse', () => {
    expect(chatStepResultSchema.safeParse({ messages: [{ type: 'text' }] }).success).toBe(false)
  })

  test('numeric fields exported as strings are read as numbers', () => {
    expect(waitSchema.parse({ secondsToWaitFor: '1.5' }).secondsToWaitFor).toBe(1.5)
    expect(videoContentSchema.parse({ height: '400' }).height).toBe(400)
    expect(inputOptionsSchema.parse({ min: '0', max: 10 })).toMatchObject({ min: 0, max: 10 })
    expect(waitSchema.safeParse({ secondsToWaitFor: 'soon' }).success).toBe(false)
  })

  test("an input's envelope checks the text field's options and passes the others through unread", () => {
    expect(chatInputSchema.safeParse({ id: 'i', type: 'text input', options: { isLong: 'yes' } }).success).toBe(false)
    expect(chatInputSchema.safeParse({ id: 'i', type: 'text input', options: { labels: { placeholder: 3 } } }).success).toBe(false)
    // The rich inputs chunk checks these (inputOptionsSchema) before its views read them.
    expect(chatInputSchema.parse({ id: 'i', type: 'rating input', options: { length: 'ten' } }).options).toMatchObject({ length: 'ten' })
    expect(inputOptionsSchema.safeParse({ length: 'ten' }).success).toBe(false)
  })

  test('text content accepts the forms the service sends', () => {
    expect(textContentSchema.parse({ richText: [{ type: 'p', children: [{ text: 'a' }] }] }).richText).toHaveLength(1)
    expect(textContentSchema.safeParse({ html: 5 }).success).toBe(false)
  })
})

describe('startChat and continueChat', () => {
  test('start request: every field optional, prefilled values are scalars', () => {
    expect(startChatRequestSchema.parse({})).toEqual({})
    expect(startChatRequestSchema.parse({ prefilledVariables: { Name: 'Ada', Age: 36, Vip: true } }).prefilledVariables?.Age).toBe(36)
    expect(startChatRequestSchema.safeParse({ prefilledVariables: { Name: { nested: 1 } } }).success).toBe(false)
    // What the widget keeps of a page's values (isPrefilledValue) is exactly what the service accepts.
    for (const value of ['', 'Ada', 0, -1.5, true, false, Number.NaN, Number.POSITIVE_INFINITY, null, undefined, [], ['a'], {}, 10n]) {
      expect(startChatRequestSchema.safeParse({ prefilledVariables: { x: value } }).success, String(value)).toBe(isPrefilledValue(value))
    }
    expect([Number.NaN, null, ['a']].some(isPrefilledValue)).toBe(false)
    expect(startChatRequestSchema.safeParse({ resultId: '' }).success).toBe(false)
  })

  test('start response carries the session, result and published stamp', () => {
    const ok = { sessionId: 's', resultId: 'r', flowId: 'f', publishedAt: '2026-11-22T10:00:00.000Z', messages: [] }
    expect(startChatResponseSchema.parse(ok).sessionId).toBe('s')
    const { sessionId: _omit, ...missing } = ok
    expect(startChatResponseSchema.safeParse(missing).success).toBe(false)
  })

  test('continue request: a message string of bounded length, or none (after a streamed answer)', () => {
    expect(continueChatRequestSchema.parse({ message: 'hello' }).message).toBe('hello')
    expect(continueChatRequestSchema.safeParse({ message: 3 }).success).toBe(false)
    expect(continueChatRequestSchema.parse({}).message).toBeUndefined()
    expect(continueChatRequestSchema.safeParse({ message: 'x'.repeat(MAX_MESSAGE_LENGTH + 1) }).success).toBe(false)
  })

  test('continue request: a text or command object, each bounded', () => {
    const text = { type: 'text', text: 'hi', replyId: 'item-1', attachedFileUrls: ['https://example.com/a.png'] }
    expect(continueChatRequestSchema.parse({ message: text }).message).toEqual(text)
    expect(continueChatRequestSchema.parse({ message: { type: 'command', command: 'wizz' } }).message).toEqual({
      type: 'command',
      command: 'wizz',
    })
    for (const message of [
      { type: 'command', command: '' },
      { type: 'command', command: 'x'.repeat(MAX_COMMAND_LENGTH + 1) },
      { type: 'command' },
      { type: 'text' },
      { type: 'text', text: 'x'.repeat(MAX_MESSAGE_LENGTH + 1) },
      { type: 'text', text: 'a', attachedFileUrls: Array.from({ length: MAX_ATTACHED_FILES + 1 }, () => 'https://e.x/') },
      { type: 'audio', url: 'https://example.com/a.mp3' },
    ]) {
      expect(continueChatRequestSchema.safeParse({ message }).success).toBe(false)
    }
  })
})

describe('error body', () => {
  test('code and message are required, details optional', () => {
    expect(errorBodySchema.parse({ error: { code: 'flow_not_found', message: 'No flow' } }).error.code).toBe('flow_not_found')
    expect(errorBodySchema.safeParse({ error: { code: 'x' } }).success).toBe(false)
    expect(errorBodySchema.safeParse({ message: 'x' }).success).toBe(false)
  })
})

describe('integration client actions and the webhook wait', () => {
  test('an action envelope passes its payload through unread; the payload schemas check it', () => {
    const http = {
      type: 'httpRequestToExecute',
      httpRequestToExecute: {
        url: 'https://api.example.com/x',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: { a: 1 },
      },
      expectsDedicatedReply: true,
    }
    const listen = { type: 'listenForWebhook', listenForWebhook: { waitId: 'w-1' }, expectsDedicatedReply: true }
    expect(clientActionSchema.parse(http)).toEqual(http)
    expect(clientActionSchema.parse(listen)).toEqual(listen)
    expect(ACTION_PAYLOADS.httpRequestToExecute.parse(http.httpRequestToExecute)).toEqual(http.httpRequestToExecute)
    expect(ACTION_PAYLOADS.listenForWebhook.parse(listen.listenForWebhook)).toEqual(listen.listenForWebhook)
    expect(ACTION_PAYLOADS.httpRequestToExecute.safeParse({ method: 'GET' }).success).toBe(false)
    expect(ACTION_PAYLOADS.listenForWebhook.safeParse({}).success).toBe(false)
    expect(ACTION_PAYLOADS.scriptToExecute.safeParse({ content: 1 }).success).toBe(false)
    expect(ACTION_PAYLOADS.redirect.safeParse({ url: 5 }).success).toBe(false)
    expect(clientActionSchema.safeParse({ redirect: { url: 'https://x.test' } }).success, 'an action has a type').toBe(false)
  })

  test('the long-poll answer is waiting, or continued with a chat step', () => {
    expect(webhookWaitResponseSchema.parse({ status: 'waiting' })).toEqual({ status: 'waiting' })
    const continued = { status: 'continued', step: { messages: [{ id: 'm', type: 'text', content: { plainText: 'Paid' } }] } }
    expect(webhookWaitResponseSchema.parse(continued)).toEqual(continued)
    expect(webhookWaitResponseSchema.safeParse({ status: 'continued' }).success).toBe(false)
    expect(webhookWaitResponseSchema.safeParse({ status: 'done' }).success).toBe(false)
  })
})
