import { describe, expect, test } from 'vitest'
import { clientActionSchema } from '../../src/protocol/chat'
import {
  MAX_STREAM_LINE_LENGTH,
  StreamFormatError,
  createStreamParser,
  errorPart,
  finishPart,
  textPart,
  type StreamPart,
} from '../../src/protocol/stream'

const encoder = new TextEncoder()

/** Feeds `bytes` to a parser in pieces of `size` bytes (cutting lines and UTF-8 sequences anywhere). */
function parseInPieces(bytes: Uint8Array, size: number): StreamPart[] {
  const parser = createStreamParser()
  const parts: StreamPart[] = []
  for (let at = 0; at < bytes.length; at += size) parts.push(...parser.push(bytes.subarray(at, at + size)))
  return [...parts, ...parser.end()]
}

const EXAMPLE = [
  'f:{"messageId":"step-1"}\n',
  textPart('Héllo 👋'),
  textPart(' there!\nHow'),
  textPart(' can I help? "quoted" \\ back'),
  'e:{"finishReason":"stop","isContinued":false}\n',
  finishPart(),
].join('')

describe('the stream action', () => {
  test('parses as a client action with its flags', () => {
    const action = clientActionSchema.parse({ type: 'stream', stream: true, expectsDedicatedReply: true, lastBubbleBlockId: 'b1' })
    expect(action).toMatchObject({ type: 'stream', stream: true, expectsDedicatedReply: true })
  })
})

describe('the data stream parser', () => {
  test('reads text, ignores the codes a client does not need, and ends at the finish part', () => {
    expect(parseInPieces(encoder.encode(EXAMPLE), 1 << 16)).toEqual([
      { type: 'text', text: 'Héllo 👋' },
      { type: 'text', text: ' there!\nHow' },
      { type: 'text', text: ' can I help? "quoted" \\ back' },
      { type: 'finish', finishReason: 'stop' },
    ])
  })

  test('gives the same parts whatever the chunk boundaries, inside UTF-8 sequences included', () => {
    const bytes = encoder.encode(EXAMPLE)
    const whole = parseInPieces(bytes, bytes.length)
    for (const size of [1, 2, 3, 5, 7, 13]) expect(parseInPieces(bytes, size), `pieces of ${size}`).toEqual(whole)
  })

  test('accepts strings, CRLF line ends and a last line without its newline', () => {
    const parser = createStreamParser()
    expect(parser.push('0:"a"\r\n0:"b')).toEqual([{ type: 'text', text: 'a' }])
    expect(parser.push('c"\r\n\r\nd:{"finishReason":"length"}')).toEqual([{ type: 'text', text: 'bc' }])
    expect(parser.end()).toEqual([{ type: 'finish', finishReason: 'length' }])
  })

  test('reads an error part as the log inside it', () => {
    const log = { status: 'error', description: 'The AI provider stopped answering', details: { after: 30 }, context: 'While streaming AI' }
    expect(createStreamParser().push(textPart('Half') + errorPart(log))).toEqual([
      { type: 'text', text: 'Half' },
      { type: 'error', log },
    ])
    // A provider's plain text instead of a log is still an error, described by that text.
    expect(createStreamParser().push('3:"upstream said no"\n')).toEqual([{ type: 'error', log: { status: 'error', description: 'upstream said no' } }])
  })

  test.each([
    ['no code', ':"x"\n'],
    ['no colon', 'hello\n'],
    ['a value that is not JSON', '0:hello\n'],
    ['a text part that is not a string', '0:{"text":"x"}\n'],
    ['an error part that is not a string', '3:{"description":"x"}\n'],
  ])('refuses a line with %s', (_name, line) => {
    expect(() => createStreamParser().push(line)).toThrow(StreamFormatError)
  })

  test('refuses a line over the cap, even before its newline arrives', () => {
    const parser = createStreamParser(100)
    expect(() => parser.push(`0:"${'x'.repeat(50)}`)).not.toThrow()
    expect(() => parser.push('x'.repeat(60))).toThrow(/longer than 100/)
    expect(() => createStreamParser(100).push(`${textPart('y'.repeat(120))}`)).toThrow(StreamFormatError)
    expect(MAX_STREAM_LINE_LENGTH).toBeGreaterThan(100_000)
  })
})
