import { beforeAll, describe, expect, it } from 'vitest'
import { MAX_LISTEN_SECONDS } from '../../../../src/protocol/chat'
import type { ChatStepResult, ClientAction } from '../../../../src/protocol/index'
import { TransportError } from '../../../../src/widget/transport/index'
import type { WebhookWait } from '../../../../src/widget/transport/long-poll'
import { hostTexts, settle, setupConversation, startResponse, text, textInput } from '../fake-client'

/** The action as the service sends it: after the step's last bubble (`after`). */
const listen = (waitId: string, after: string): ClientAction => ({
  type: 'listenForWebhook',
  listenForWebhook: { waitId },
  lastBubbleBlockId: after,
  expectsDedicatedReply: true,
})
const waitingStart = () =>
  startResponse({ messages: [text('m1', 'We are checking your payment')], clientSideActions: [listen('w1', 'm1')] })
const continued = (step: ChatStepResult): WebhookWait => ({ status: 'continued', step })
const never = <T>() => new Promise<T>(() => {})

// The runners' and the commands' chunks, loaded once up front: the tests then run at the pace of the conversation.
beforeAll(() =>
  Promise.all([import('../../../../src/widget/chat/actions/client-actions'), import('../../../../src/widget/chat/conversation/commands')]),
)

describe('waiting for a webhook', () => {
  it('long-polls until the flow goes on, then plays its step like an answer (nothing is replied)', async () => {
    const { conversation, calls } = setupConversation({
      start: waitingStart(),
      waits: [{ status: 'waiting' }, continued({ messages: [text('m2', 'Paid, thank you')], input: textInput('in2') })],
    })
    conversation.start()
    await settle()
    expect(calls.listen).toEqual([
      { sessionId: 's1', waitId: 'w1', timeoutSeconds: MAX_LISTEN_SECONDS },
      { sessionId: 's1', waitId: 'w1', timeoutSeconds: MAX_LISTEN_SECONDS },
    ])
    expect(hostTexts(conversation)).toEqual(['We are checking your payment', 'Paid, thank you'])
    expect(conversation.input.value?.input.id).toBe('in2')
    expect(calls.continue).toEqual([])
  })

  it('is the stage the interface shows as waiting, with no input to answer', async () => {
    const { conversation } = setupConversation({ start: waitingStart(), waits: [never()] })
    conversation.start()
    await settle()
    expect(conversation.stage.value).toMatchObject({ tag: 'running-action', action: { type: 'listenForWebhook' } })
    expect(conversation.input.value).toBeNull()
  })

  it('asks again with growing pauses while the service cannot be reached, and tells the page once per outage', async () => {
    const pauses: number[] = []
    const offline = () => new TransportError('network', 'offline')
    const { conversation, events } = setupConversation(
      {
        start: waitingStart(),
        waits: [offline(), offline(), offline(), { status: 'waiting' }, offline(), continued({ messages: [text('m2', 'Paid')] })],
      },
      { sleep: async (ms) => void pauses.push(ms) },
    )
    conversation.start()
    await settle()
    expect(hostTexts(conversation)).toEqual(['We are checking your payment', 'Paid'])
    expect(pauses).toHaveLength(4)
    // Equal jitter: each pause is at least half its ceiling, and the ceiling doubles.
    expect(pauses[1]!).toBeGreaterThanOrEqual(600)
    expect(pauses[2]!).toBeGreaterThanOrEqual(1200)
    expect(events.of('flowchat:log').filter((log) => log.code === 'webhook-wait-interrupted')).toHaveLength(2)
    expect(events.of('flowchat:error')).toEqual([])
  })

  it('ends in a clear failure when the service no longer has the session', async () => {
    const { conversation, events } = setupConversation({
      start: waitingStart(),
      waits: [new TransportError('http', 'This conversation has ended', { status: 410, code: 'session_expired' })],
    })
    conversation.start()
    await settle()
    expect(conversation.failure.value).toMatchObject({ detail: { code: 'session-expired' }, recovery: 'restart' })
    expect(events.of('flowchat:error')).toEqual([expect.objectContaining({ code: 'session-expired', status: 410 })])
  })

  it('stops asking when the chat is removed', async () => {
    const { conversation, calls } = setupConversation({ start: waitingStart(), waits: [never(), { status: 'waiting' }] })
    conversation.start()
    await settle()
    conversation.dispose()
    await settle()
    expect(calls.listen).toHaveLength(1)
  })

  it('takes commands: the wait stops, the command runs, and a Return comes back to a new wait', async () => {
    const { conversation, calls } = setupConversation({
      start: waitingStart(),
      waits: [never(), { status: 'waiting' }, never()],
      replies: [{ messages: [text('w', 'Wizzzzz')], clientSideActions: [listen('w2', 'w')] }],
    })
    conversation.start()
    await settle()
    await conversation.command('wizz')
    await settle()
    // The wait was asked once more, without holding, in case the webhook had come meanwhile.
    expect(calls.listen.map((call) => [call.waitId, call.timeoutSeconds])).toEqual([
      ['w1', MAX_LISTEN_SECONDS],
      ['w1', 0],
      ['w2', MAX_LISTEN_SECONDS],
    ])
    expect(calls.continue.map((call) => call.message)).toEqual([{ type: 'command', command: 'wizz' }])
    expect(hostTexts(conversation)).toEqual(['We are checking your payment', 'Wizzzzz'])
    expect(conversation.stage.value).toMatchObject({ tag: 'running-action', action: { listenForWebhook: { waitId: 'w2' } } })
  })

  it('plays a webhook that came meanwhile first, then sends the command', async () => {
    const { conversation, calls } = setupConversation({
      start: waitingStart(),
      waits: [never(), continued({ messages: [text('m2', 'Paid')], input: textInput('in2') })],
      replies: [{ messages: [text('w', 'Wizzzzz')], input: textInput('in2') }],
    })
    conversation.start()
    await settle()
    await conversation.command('wizz')
    await settle()
    expect(hostTexts(conversation)).toEqual(['We are checking your payment', 'Paid', 'Wizzzzz'])
    expect(calls.continue.map((call) => call.message)).toEqual([{ type: 'command', command: 'wizz' }])
  })

  it('waits again, unchanged, when the service refuses a command sent during the wait', async () => {
    const { conversation, calls } = setupConversation({
      start: waitingStart(),
      waits: [never(), { status: 'waiting' }, never()],
      replies: [new TransportError('http', 'Command event not found', { status: 400, code: 'invalid_body' })],
    })
    conversation.start()
    await settle()
    await expect(conversation.command('nope')).rejects.toMatchObject({ code: 'command-rejected' })
    await settle()
    expect(calls.listen.map((call) => call.waitId)).toEqual(['w1', 'w1', 'w1'])
    expect(conversation.stage.value).toMatchObject({ tag: 'running-action', action: { type: 'listenForWebhook' } })
    expect(hostTexts(conversation)).toEqual(['We are checking your payment'])
  })
})
