import { describe, expect, it } from 'vitest'
import { errorLine, finishLine, textLines } from '../../../../src/protocol/stream'
import { follow } from '../../../../src/widget/chat/actions/stream-answer'
import { type Conversation, createConversation, type HostEntry } from '../../../../src/widget/chat/index'
import type { FetchLike } from '../../../../src/widget/transport/index'
import { errorResponse, liveStream, streamResponse } from '../../transport/stream-responses'
import { fakeClient, recordEvents, settle, startResponse, text, textInput } from '../fake-client'

const STREAM_STEP = startResponse({
  messages: [text('m1', 'Let me think…')],
  clientSideActions: [{ type: 'stream', stream: true, expectsDedicatedReply: true, lastBubbleBlockId: 'm1' }],
})

function setup(responses: Array<Response | Error>) {
  const streamCalls: string[] = []
  const streamFetch: FetchLike = async (url) => {
    streamCalls.push(url)
    const next = responses.shift()
    if (!next) throw new Error('unexpected streamMessage')
    if (next instanceof Error) throw next
    return next
  }
  const fake = fakeClient({ start: STREAM_STEP, replies: [{ messages: [text('m2', 'Anything else?')], input: textInput() }], streamFetch })
  const events = recordEvents()
  let keys = 0
  const conversation = createConversation({
    flow: 'f1',
    client: fake.client,
    emit: events.emit,
    newKey: () => `key-${++keys}`,
    sleep: async () => {},
  })
  return { ...fake, events, conversation, streamCalls }
}

const hosts = (conversation: Conversation) =>
  conversation.transcript.chunks.value.flatMap((chunk) => chunk.entries.value).filter((entry): entry is HostEntry => entry.kind === 'host')
const streamed = (conversation: Conversation) => hosts(conversation).find((entry) => entry.stream)!

describe('a streamed answer', () => {
  it('appears piece by piece in its own bubble, then the flow goes on with a continueChat that carries no message', async () => {
    const live = liveStream()
    const { conversation, calls, events, streamCalls } = setup([live.response])
    conversation.start()
    await settle()
    expect(conversation.stage.value.tag).toBe('streaming')
    expect(streamCalls).toEqual(['https://chat.example/v1/sessions/s1/streamMessage'])
    const entry = streamed(conversation)
    const seen: Array<[string, boolean]> = []
    entry.stream!.listen((piece, reset) => seen.push([piece, reset]))
    live.write(textLines('**Hello**'))
    await settle()
    expect(entry.stream!.text).toBe('**Hello**')
    expect(entry.stream!.status.value).toBe('streaming')
    live.write(textLines(' there') + finishLine())
    await settle()
    expect(seen).toEqual([
      ['**Hello**', false],
      [' there', false],
    ])
    expect(entry.stream!.status.value).toBe('done')
    expect(entry.message.content).toEqual({ plainText: '**Hello** there', format: 'markdown' })
    expect(calls.continue).toEqual([{ sessionId: 's1', message: null, key: 'key-1' }])
    expect(hosts(conversation).map((host) => host.message.id)).toEqual(['m1', 'm1', 'm2'])
    expect(conversation.stage.value.tag).toBe('waiting-input')
    expect(events.of('flowchat:stream-start')).toEqual([{ attempt: 0 }])
    expect(events.of('flowchat:stream-end')).toEqual([{ attempt: 0, text: '**Hello** there' }])
    expect(events.of('flowchat:answer')).toEqual([])
  })

  it('keeps what arrived when the stream fails, says so, and streams again when the visitor retries', async () => {
    const log = { status: 'error', description: 'The provider stopped', context: 'While streaming AI' } as const
    const { conversation, calls, events } = setup([
      streamResponse([textLines('The answer is'), errorLine(log)]),
      streamResponse([textLines('The answer'), textLines(' is 42.'), finishLine()]),
    ])
    conversation.start()
    await settle()
    const entry = streamed(conversation)
    expect(entry.stream!.status.value).toBe('failed')
    expect(entry.stream!.text).toBe('The answer is')
    expect(entry.stream!.error.value).toEqual({
      words: { text: 'The answer could not be completed.', id: 'answerFailed' },
      retryable: true,
    })
    expect(events.of('flowchat:error').map((error) => error.code)).toEqual(['stream-failed'])
    expect(events.of('flowchat:log').at(-1)).toMatchObject({ code: 'stream-failed', description: 'The provider stopped' })
    expect(calls.continue).toEqual([])

    const seen: Array<[string, boolean]> = []
    entry.stream!.listen((piece, reset) => seen.push([piece, reset]))
    entry.stream!.retry()
    await settle()
    // The replay repeats what was on screen: only what is new is appended.
    expect(seen).toEqual([[' 42.', false]])
    expect(entry.stream!.text).toBe('The answer is 42.')
    expect(events.of('flowchat:stream-end')).toEqual([{ attempt: 1, text: 'The answer is 42.' }])
    expect(calls.continue).toHaveLength(1)
  })

  it('marks a connection lost mid-answer as interrupted', async () => {
    const live = liveStream()
    const { conversation, events } = setup([live.response])
    conversation.start()
    await settle()
    live.write(textLines('Partial'))
    await settle()
    live.drop()
    await settle()
    const entry = streamed(conversation)
    expect(entry.stream!.status.value).toBe('failed')
    expect(entry.stream!.text).toBe('Partial')
    expect(events.of('flowchat:error')).toMatchObject([{ code: 'stream-interrupted', retryable: true }])
  })

  it('tries a stream that fails to start once more by itself', async () => {
    const { conversation, streamCalls, calls } = setup([errorResponse(503, 'unavailable'), streamResponse([textLines('Hi'), finishLine()])])
    conversation.start()
    await settle()
    expect(streamCalls).toHaveLength(2)
    expect(streamed(conversation).stream!.text).toBe('Hi')
    expect(calls.continue).toHaveLength(1)
  })

  it('stops streaming when the conversation is reset', async () => {
    const live = liveStream()
    const { conversation, events } = setup([live.response])
    conversation.start()
    await settle()
    conversation.dispose()
    await settle()
    expect(events.of('flowchat:error')).toEqual([])
    expect(() => live.write(textLines('late'))).toThrow()
  })
})

describe('reconciling a retried answer with the text on screen', () => {
  function driver(shown: string) {
    const changes: Array<[string, boolean]> = []
    const answer = { text: shown }
    const target = {
      answer,
      append: (piece: string) => {
        answer.text += piece
        changes.push([piece, false])
      },
      replace: (whole: string) => {
        answer.text = whole
        changes.push([whole, true])
      },
    }
    return { target, changes, answer }
  }

  it('replaces the text once, from the first difference, when the new answer differs', () => {
    const { target, changes, answer } = driver('Paris is big')
    const follower = follow(target)
    for (const piece of ['Paris', ' is', ' the capital']) follower.piece(piece)
    follower.end()
    expect(changes).toEqual([['Paris is the capital', true]])
    expect(answer.text).toBe('Paris is the capital')
  })

  it('shortens the text when the new answer is a prefix of what was shown', () => {
    const { target, changes } = driver('Yes, and more')
    const follower = follow(target)
    follower.piece('Yes')
    follower.end()
    expect(changes).toEqual([['Yes', true]])
  })
})
