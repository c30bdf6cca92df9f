/**
 * A streamed AI answer on the wire (the `stream` client action, see `./chat`). The widget sends
 * `POST {chat_base_url}/v1/sessions/{sessionId}/streamMessage` with `{}`; the service answers
 * `200 text/plain; charset=utf-8` with one part per line, `<code>:<JSON>\n`:
 *
 * - `0:"<text>"`: append the text to the message;
 * - `3:"<JSON of a log {status: 'error', description, details?, context: 'While streaming AI'}>"`:
 *   the stream failed (the last part; nothing was recorded, a new request starts over);
 * - `d:{"finishReason":"stop"}`: the answer is complete and recorded by the service (the last part);
 * - any other code is ignored (the builder's data stream has more: `f`, `e`, `9`, …).
 *
 * Errors before the stream starts are ordinary error bodies with their status (404, 409, 410,
 * 429, 502 `upstream_failed`), never a 200. Shared by the service, its tests and the widget:
 * no Node APIs, no schema library.
 */

export const STREAM_MESSAGE_PATH = '/v1/sessions/{sessionId}/streamMessage'

/** The `context` of every log a failed stream reports. */
export const STREAM_LOG_CONTEXT = 'While streaming AI'

/**
 * Longest line a parser accepts, in characters, newline excluded. The service never writes a
 * longer one (it splits text into parts of `MAX_STREAM_TEXT_PART` characters, which JSON escaping
 * can at most multiply by six), so a longer line means a broken or hostile stream.
 */
export const MAX_STREAM_LINE_LENGTH = 64 * 1024
/** Most characters of text the service puts in one `0:` part. */
export const MAX_STREAM_TEXT_PART = 8 * 1024

export interface StreamErrorLog {
  status: 'error'
  description: string
  details?: unknown
  context: string
}

export type StreamPart = { type: 'text'; text: string } | { type: 'error'; log: StreamErrorLog } | { type: 'finish'; finishReason: string }

/** The stream does not follow the format above (a line too long, a malformed part, a cut line). */
export class StreamFormatError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'StreamFormatError'
  }
}

/** One `0:` line per part of at most `MAX_STREAM_TEXT_PART` characters (never splitting a pair). */
export function textLines(text: string): string {
  let lines = ''
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + MAX_STREAM_TEXT_PART, text.length)
    // A high surrogate at the cut would leave half a character on each side.
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--
    lines += `0:${JSON.stringify(text.slice(start, end))}\n`
    start = end
  }
  return lines
}

export function errorLine(log: Omit<StreamErrorLog, 'status' | 'context'>): string {
  const full: StreamErrorLog = { status: 'error', ...log, context: STREAM_LOG_CONTEXT }
  return `3:${JSON.stringify(JSON.stringify(full))}\n`
}

export function finishLine(finishReason = 'stop'): string {
  return `d:${JSON.stringify({ finishReason })}\n`
}

export interface StreamParser {
  /** Parts completed by this chunk (a chunk may split a line, or a UTF-8 sequence, anywhere). */
  push(chunk: Uint8Array | string): StreamPart[]
  /** The stream ended: throws when it stopped in the middle of a line. */
  end(): StreamPart[]
}

/**
 * An incremental parser: each chunk costs in proportion to its own length, whatever came before
 * (only the unfinished line is kept). Throws `StreamFormatError` on a line over
 * `MAX_STREAM_LINE_LENGTH` or a malformed `0`, `3` or `d` part; other codes are skipped.
 */
export function createStreamParser(maxLineLength = MAX_STREAM_LINE_LENGTH): StreamParser {
  const decoder = new TextDecoder('utf-8')
  let pending = ''
  const take = (text: string): StreamPart[] => {
    const parts: StreamPart[] = []
    let from = 0
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', from)) {
      const line = pending + text.slice(from, newline)
      pending = ''
      if (line.length > maxLineLength) throw tooLong(maxLineLength)
      const part = parseLine(line)
      if (part) parts.push(part)
      from = newline + 1
    }
    if (pending.length + text.length - from > maxLineLength) throw tooLong(maxLineLength)
    pending += text.slice(from)
    return parts
  }
  return {
    push: (chunk) => take(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })),
    end() {
      const parts = take(decoder.decode())
      if (pending !== '') throw new StreamFormatError('The stream ended in the middle of a line')
      return parts
    },
  }
}

function parseLine(line: string): StreamPart | undefined {
  const colon = line.indexOf(':')
  if (line === '' || line === '\r') return undefined
  if (colon < 1) throw new StreamFormatError('A line is not <code>:<JSON>')
  const code = line.slice(0, colon)
  if (code !== '0' && code !== '3' && code !== 'd') return undefined
  let value: unknown
  try {
    value = JSON.parse(line.slice(colon + 1))
  } catch {
    throw new StreamFormatError(`The value of a ${code} part is not JSON`)
  }
  if (code === '0') {
    if (typeof value !== 'string') throw new StreamFormatError('A text part is not a JSON string')
    return { type: 'text', text: value }
  }
  if (code === 'd') {
    const reason = (value as { finishReason?: unknown } | null)?.finishReason
    return { type: 'finish', finishReason: typeof reason === 'string' ? reason : 'stop' }
  }
  return { type: 'error', log: errorLog(value) }
}

/** The log inside a `3:` part; a part that carries no log still reports a failure. */
function errorLog(value: unknown): StreamErrorLog {
  let log: unknown = value
  if (typeof value === 'string') {
    try {
      log = JSON.parse(value)
    } catch {
      log = { description: value }
    }
  }
  const fields = (typeof log === 'object' && log !== null ? log : {}) as Record<string, unknown>
  const description = typeof fields.description === 'string' ? fields.description : 'The answer could not be streamed'
  return {
    status: 'error',
    description,
    ...(fields.details === undefined ? {} : { details: fields.details }),
    context: typeof fields.context === 'string' ? fields.context : STREAM_LOG_CONTEXT,
  }
}

function tooLong(max: number): StreamFormatError {
  return new StreamFormatError(`A line of the stream is longer than ${max} characters`)
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff
