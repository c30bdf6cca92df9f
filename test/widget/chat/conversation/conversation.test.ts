import { effect } from '@preact/signals'
import { describe, expect, it, vi } from 'vitest'
import type { ChatStepResult } from '../../../../src/protocol/index'
import { type Conversation, createConversation, lazyRunner } from '../../../../src/widget/chat/index'
import { TransportError } from '../../../../src/widget/transport/index'
import {
  entriesOf,
  fakeClient,
  guests,
  publishedFlow,
  recordEvents,
  settle,
  setupConversation as setup,
  startResponse,
  text,
  textInput,
} from '../fake-client'

describe('conversation start', () => {
  it('paints the published flow, plays the first step and shows its input', async () => {
    const { conversation, events } = setup()
    conversation.start()
    expect(conversation.stage.value.tag).toBe('loading')
    await settle()
    expect(conversation.publishedFlow.value?.id).toBe('pf1')
    expect(entriesOf(conversation).map((entry) => entry.kind)).toEqual(['host'])
    expect(conversation.input.value?.input.type).toBe('text input')
    expect(conversation.stage.value.tag).toBe('waiting-input')
    expect(events.of('flowchat:ready')).toEqual([{ flowId: 'f1', publishedFlowId: 'pf1', updatedAt: publishedFlow().updatedAt }])
    expect(events.of('flowchat:start')).toEqual([{ sessionId: 's1', resultId: 'r1', resumed: false }])
  })

  it('fetches the published flow again when startChat reports a newer publication', async () => {
    const { conversation, calls } = setup({ start: startResponse({ input: textInput() }, { publishedAt: 'newer' }) })
    conversation.start()
    await settle()
    expect(calls.published).toBe(2)
  })

  it('sends only valid prefilled variables and reports the rest', async () => {
    const { conversation, calls, events } = setup(
      {},
      { prefilledVariables: { Name: 'Ada', Age: 36, Pro: false, Bad: { x: 1 }, Score: Number.NaN } },
    )
    conversation.start()
    await settle()
    expect(calls.start[0]?.body).toEqual({ isStreamEnabled: true, prefilledVariables: { Name: 'Ada', Age: 36, Pro: false } })
    expect(events.of('flowchat:log').find((log) => log.code === 'invalid-variables')?.details).toEqual({ dropped: ['Bad', 'Score'] })
  })

  it('shows a clear failure, not a blank box, when the published flow cannot be read', async () => {
    const { conversation, events } = setup({ published: new TransportError('invalid-response', 'bad') })
    conversation.start()
    await settle()
    expect(conversation.stage.value.tag).toBe('failed')
    expect(conversation.failure.value?.detail.code).toBe('invalid-response')
    expect(conversation.failure.value?.detail.message).toMatch(/can't read/)
    expect(conversation.failure.value?.recovery).toBe('restart')
    expect(events.of('flowchat:error')).toHaveLength(1)
  })

  it('reports a missing flow id without calling the service', async () => {
    const { conversation, calls } = setup({}, { flow: '  ' })
    conversation.start()
    await settle()
    expect(conversation.failure.value?.detail.code).toBe('missing-flow')
    expect(calls.start).toHaveLength(0)
  })

  it('offers nothing to try again for a set-up mistake', async () => {
    const notFound = new TransportError('http', 'No flow with id f1.', { status: 404, code: 'flow_not_found' })
    const { conversation, events } = setup({ published: notFound, start: notFound })
    conversation.start()
    await settle()
    expect(conversation.failure.value).toMatchObject({
      detail: { code: 'flow-not-found' },
      words: { id: 'failNotSetUp' },
      recovery: 'none',
    })
    expect(events.of('flowchat:error').map((error) => error.code)).toEqual(['flow-not-found'])
  })

  it('starts no session on a flow this page was already refused (a launcher read it first)', async () => {
    const refusal = new TransportError('http', 'Unknown or revoked token.', { status: 401, code: 'unauthorized' })
    const { conversation, calls } = setup({ refusal })
    conversation.start()
    await settle()
    expect([calls.published, calls.start.length]).toEqual([0, 0])
    expect(conversation.failure.value).toMatchObject({ detail: { code: 'not-set-up', status: 401 }, recovery: 'none' })
  })
})

describe('answers', () => {
  it('shows the answer, replaces it with lastMessageNewFormat, plays the reply and ends', async () => {
    const { conversation, calls, events } = setup({
      replies: [{ lastMessageNewFormat: 'Ada L.', messages: [text('m2', 'Thanks')] }],
    })
    conversation.start()
    await settle()
    expect(conversation.send('ada l')).toBe(true)
    const [answer] = guests(conversation)
    expect(answer?.status.value).toBe('sending')
    expect(conversation.input.value).toBeNull()
    await settle()
    expect(answer?.status.value).toBe('sent')
    expect(answer?.text.value).toBe('Ada L.')
    expect(calls.continue).toEqual([{ sessionId: 's1', message: 'ada l', key: 'key-1' }])
    expect(entriesOf(conversation).map((entry) => entry.kind)).toEqual(['host', 'guest', 'host'])
    expect(conversation.stage.value.tag).toBe('ended')
    await vi.waitFor(() => expect(events.of('flowchat:end')).toHaveLength(1))
    // The page gets the transcript: every message in order, the answer as the visitor saw it.
    const [end] = events.of('flowchat:end')
    expect(end?.transcript?.map(({ from, text }) => `${from}: ${text}`)).toEqual(['flow: Hello', 'visitor: Ada L.', 'flow: Thanks'])
    expect(end?.transcript?.every((line) => !Number.isNaN(Date.parse(line.at ?? '')))).toBe(true)
  })

  it('refuses a second answer while one is on its way', async () => {
    let resolve: (step: ChatStepResult) => void = () => {}
    const { conversation, calls } = setup({ replies: [new Promise((r) => (resolve = r))] })
    conversation.start()
    await settle()
    expect(conversation.send('one')).toBe(true)
    expect(conversation.send('two')).toBe(false)
    resolve({ input: textInput('in2') })
    await settle()
    expect(calls.continue).toHaveLength(1)
    expect(conversation.input.value?.input.id).toBe('in2')
  })

  it('keeps a failed answer on screen and retries it once with the same key', async () => {
    const { conversation, calls, events } = setup({
      replies: [new TransportError('network', 'offline'), { input: textInput('in2') }],
    })
    conversation.start()
    await settle()
    conversation.send('hello')
    await settle()
    const [answer] = guests(conversation)
    expect(answer?.status.value).toBe('failed')
    expect(answer?.error.value).toMatchObject({ text: expect.stringMatching(/reach the chat service/), id: 'failNetwork' })
    expect(events.of('flowchat:error')[0]?.code).toBe('network-error')
    conversation.retry()
    await settle()
    expect(answer?.status.value).toBe('sent')
    expect(calls.continue.map((call) => call.key)).toEqual(['key-1', 'key-1'])
    expect(guests(conversation)).toHaveLength(1)
    conversation.retry()
    await settle()
    expect(calls.continue).toHaveLength(2)
  })

  it('brings the input back with the refused answer when the service rejects it', async () => {
    const { conversation } = setup({
      replies: [new TransportError('http', 'Message too long', { status: 400, code: 'invalid_body' })],
    })
    conversation.start()
    await settle()
    conversation.send('x')
    await settle()
    const [answer] = guests(conversation)
    expect(answer?.status.value).toBe('rejected')
    expect(answer?.error.value).toEqual({ text: 'Message too long' })
    expect(conversation.input.value?.draft.value).toBe('x')
  })

  it('offers a new conversation when the session expired, and resets cleanly', async () => {
    const { conversation, calls } = setup({
      replies: [new TransportError('http', 'gone', { status: 410, code: 'session_expired' })],
    })
    conversation.start()
    await settle()
    conversation.send('hi')
    await settle()
    expect(conversation.failure.value?.detail.code).toBe('session-expired')
    expect(conversation.failure.value?.recovery).toBe('restart')
    // The answer is marked, not offered for a retry that could not succeed.
    expect(guests(conversation)[0]?.status.value).toBe('rejected')
    expect(guests(conversation)[0]?.error.value).toBeNull()
    conversation.retry()
    await settle()
    expect(calls.continue).toHaveLength(1)
    conversation.reset()
    await settle()
    expect(calls.start).toHaveLength(2)
    expect(entriesOf(conversation).map((entry) => entry.kind)).toEqual(['host'])
    expect(conversation.failure.value).toBeNull()
  })

  it('uses the prefilled value only when input prefill is enabled', async () => {
    const withPrefill = setup({ start: startResponse({ input: textInput('in1', { prefilledValue: 'ada@example.com' }) }) })
    withPrefill.conversation.start()
    await settle()
    expect(withPrefill.conversation.input.value?.draft.value).toBe('ada@example.com')

    const without = setup({
      published: publishedFlow({ settings: { general: { isInputPrefillEnabled: false }, typingEmulation: { enabled: false } } }),
      start: startResponse({ input: textInput('in1', { prefilledValue: 'ada@example.com' }) }),
    })
    without.conversation.start()
    await settle()
    expect(without.conversation.input.value?.draft.value).toBe('')
  })
})

describe('client actions and logs', () => {
  it('reports an unsupported script, never runs it, and sends the empty reply it expects', async () => {
    const { conversation, calls, events } = setup({
      start: startResponse({
        messages: [text('m1', 'Computing…')],
        clientSideActions: [
          {
            type: 'scriptToExecute',
            scriptToExecute: { content: 'globalThis.__ran = true' },
            lastBubbleBlockId: 'm1',
            expectsDedicatedReply: true,
          },
        ],
      }),
      replies: [{ messages: [text('m2', 'Done')], input: textInput() }],
    })
    conversation.start()
    // The runners of the built-in actions are a chunk of their own: it loads first.
    await vi.waitFor(() => expect(conversation.input.value).not.toBeNull())
    expect((globalThis as Record<string, unknown>).__ran).toBeUndefined()
    expect(events.of('flowchat:log').map((log) => log.code)).toContain('script-not-supported')
    expect(calls.continue.map((call) => call.message)).toEqual([''])
    expect(guests(conversation)).toHaveLength(0)
    expect(entriesOf(conversation)).toHaveLength(2)
  })

  it('forwards every service log entry to the page', async () => {
    const { conversation, events } = setup({
      start: startResponse({ logs: [{ status: 'info', description: 'Block type Webhook is not supported' }], input: textInput() }),
    })
    conversation.start()
    await settle()
    expect(events.of('flowchat:log')).toContainEqual({
      status: 'info',
      description: 'Block type Webhook is not supported',
      details: undefined,
      source: 'service',
      code: 'service-log',
    })
  })

  it('tracks progress and dynamic avatars from each step', async () => {
    const { conversation } = setup({
      start: startResponse({
        progress: 40,
        dynamicTheme: { hostAvatarUrl: 'https://cdn.example/bot.png' },
        messages: [text('m1', 'Hi')],
        input: textInput(),
      }),
    })
    conversation.start()
    await settle()
    expect(conversation.progress.value).toBe(40)
    const [first] = entriesOf(conversation)
    expect(first?.kind === 'host' && first.avatarUrl).toBe('https://cdn.example/bot.png')
  })
})

describe('dispose', () => {
  it('cancels the request in flight and changes nothing afterwards', async () => {
    const { conversation, events } = setup({ replies: [new Promise(() => {})] })
    conversation.start()
    await settle()
    conversation.send('hello')
    conversation.dispose()
    await settle()
    expect(guests(conversation)[0]?.status.value).toBe('sending')
    expect(events.of('flowchat:error')).toHaveLength(0)
    expect(conversation.send('again')).toBe(false)
  })
})

describe('the stage', () => {
  /** Every stage the conversation enters, in order (repeats of one stage once). */
  function watch(conversation: Conversation) {
    const seen: string[] = []
    const stop = effect(() => {
      const { tag } = conversation.stage.value
      if (seen.at(-1) !== tag) seen.push(tag)
    })
    return { seen, stop }
  }

  it('follows a turn: loading, playing, the input, sending, playing the reply, ended', async () => {
    const { conversation } = setup({ replies: [{ messages: [text('m2', 'Thanks')] }] })
    const { seen, stop } = watch(conversation)
    conversation.start()
    await settle()
    conversation.send('Ada')
    await settle()
    stop()
    expect(seen).toEqual(['idle', 'loading', 'playing', 'waiting-input', 'sending', 'playing', 'ended'])
  })

  it('runs a client action in its own stage and requests a lazily loaded runner as soon as its step arrives', async () => {
    const loaded: string[] = []
    let release: () => void = () => {}
    const runner = lazyRunner(async () => {
      loaded.push('chunk')
      return async () => {
        await new Promise<void>((resolve) => (release = resolve))
        return { reply: 'done' }
      }
    })
    const fake = fakeClient({
      start: startResponse({
        messages: [text('m1', 'Working…')],
        clientSideActions: [{ type: 'longTask', lastBubbleBlockId: 'm1', expectsDedicatedReply: true }],
      }),
      replies: [{ input: textInput('in2') }],
    })
    const conversation = createConversation({
      flow: 'f1',
      client: fake.client,
      emit: recordEvents().emit,
      actions: { longTask: runner },
      sleep: async () => {},
    })
    conversation.start()
    await settle()
    expect(loaded).toEqual(['chunk'])
    expect(conversation.stage.value).toMatchObject({ tag: 'running-action', action: { type: 'longTask' } })
    expect(entriesOf(conversation)).toHaveLength(1)
    release()
    await settle()
    expect(fake.calls.continue.map((call) => call.message)).toEqual(['done'])
    expect(conversation.input.value?.input.id).toBe('in2')
  })

  it('gives a refused answer back as the draft when the service asks the same input again', async () => {
    const { conversation } = setup({
      start: startResponse({ input: textInput('email', { prefilledValue: 'old@example.com' }) }),
      replies: [
        { messages: [text('retry', 'That is not an e-mail address.')], input: textInput('email', { prefilledValue: 'old@example.com' }) },
      ],
    })
    conversation.start()
    await settle()
    expect(conversation.input.value?.draft.value).toBe('old@example.com')
    conversation.send('ada-at-example')
    await settle()
    expect(conversation.input.value?.draft.value).toBe('ada-at-example')
  })

  it('lets the page type and send the waiting answer, and refuses when nothing waits', async () => {
    const { conversation, calls } = setup({ replies: [{ messages: [text('m2', 'Thanks')] }] })
    expect(conversation.setDraft('too early')).toBe(false)
    conversation.start()
    await settle()
    expect(conversation.submitDraft()).toBe(false)
    expect(conversation.setDraft('Ada')).toBe(true)
    expect(conversation.input.value?.draft.value).toBe('Ada')
    expect(conversation.submitDraft()).toBe(true)
    await settle()
    expect(calls.continue.map((call) => call.message)).toEqual(['Ada'])
    expect(conversation.setDraft('more')).toBe(false)
  })
})
