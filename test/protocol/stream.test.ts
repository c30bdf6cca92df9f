import { describe, expect, test } from 'vitest'
import {
  createStreamParser,
  errorLine,
  finishLine,
  MAX_STREAM_LINE_LENGTH,
  MAX_STREAM_TEXT_PART,
  STREAM_LOG_CONTEXT,
  StreamFormatError,
  type StreamPart,
  textLines,
} from '../../src/protocol/stream'

const SAMPLE = 'Héllo 👋🏽 wörld — “quotes” \\ "escaped"\nnew line ✓ 日本語'
const WIRE = `f:{"messageId":"step-1"}\n${textLines(SAMPLE)}${textLines(' and more')}e:{"finishReason":"stop","isContinued":false}\n${finishLine()}`

function parseAll(chunks: (Uint8Array | string)[]): StreamPart[] {
  const parser = createStreamParser()
  return [...chunks.flatMap((chunk) => parser.push(chunk)), ...parser.end()]
}

const joined = (parts: StreamPart[]) => parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('')

describe('the stream line format', () => {
  test('text parts, then the finish part; other codes are skipped', () => {
    const parts = parseAll([WIRE])
    expect(joined(parts)).toBe(`${SAMPLE} and more`)
    expect(parts.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' })
    expect(parts.map((part) => part.type)).toEqual(['text', 'text', 'finish'])
  })

  test('bytes split anywhere, inside UTF-8 sequences included, parse to the same parts', () => {
    const bytes = new TextEncoder().encode(WIRE)
    const whole = parseAll([bytes])
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(parseAll([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual(whole)
    }
    expect(parseAll([...bytes].map((byte) => Uint8Array.of(byte)))).toEqual(whole)
  })

  test('an error part carries the log of the failure', () => {
    const parts = parseAll([textLines('Half'), errorLine({ description: 'Timed out', details: { afterMs: 30_000 } })])
    expect(parts).toEqual([
      { type: 'text', text: 'Half' },
      { type: 'error', log: { status: 'error', description: 'Timed out', details: { afterMs: 30_000 }, context: STREAM_LOG_CONTEXT } },
    ])
  })

  test('long text is split into bounded parts, never inside a surrogate pair', () => {
    const text = `${'a'.repeat(MAX_STREAM_TEXT_PART - 1)}😀${'b'.repeat(MAX_STREAM_TEXT_PART * 2)}`
    const lines = textLines(text).split('\n').filter(Boolean)
    expect(lines.length).toBeGreaterThan(2)
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(MAX_STREAM_LINE_LENGTH)
    const parts = parseAll([textLines(text)])
    expect(joined(parts)).toBe(text)
    for (const part of parts) expect((part as { text: string }).text).not.toMatch(/[\uD800-\uDBFF]$|^[\uDC00-\uDFFF]/)
    // The worst JSON escaping of a full part still fits a line.
    expect(textLines('\u0001'.repeat(MAX_STREAM_TEXT_PART)).length - 3).toBeLessThanOrEqual(MAX_STREAM_LINE_LENGTH)
  })

  test.each([
    ['a line over the cap', [`0:"${'x'.repeat(MAX_STREAM_LINE_LENGTH)}"\n`]],
    ['an unfinished line over the cap, in small chunks', Array.from({ length: 70 }, () => 'x'.repeat(1024))],
    ['a text part that is not a string', ['0:42\n']],
    ['a text part that is not JSON', ['0:"open\n']],
    ['a line without a code', ['hello\n']],
    ['a stream cut in the middle of a line', ['0:"Hel']],
  ])('refuses %s', (_what, chunks) => {
    expect(() => parseAll(chunks)).toThrow(StreamFormatError)
  })
})
