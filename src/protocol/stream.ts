/**
 * A streamed AI answer: `POST {chat_base_url}/v1/sessions/{sessionId}/streamMessage` with body
 * `{}` answers `200 text/plain` whose body is lines `<code>:<JSON>\n` (the "data stream"):
 * - `0:"<text>"` a piece of the answer, appended to what came before;
 * - `3:"<JSON text of a log>"` the stream failed (the last part): `{status, description, details?, context}`;
 * - `d:{"finishReason":"stop"}` the answer is complete and recorded by the service (the last part);
 * - any other code (`f`, `e`, `9`, …) is ignored.
 * Errors before the stream starts are ordinary error responses (404, 409, 410, 429, 502), never
 * a 200 carrying an error. The parser below is shared by the widget and the service's tests.
 */
export const STREAM_MESSAGE_PATH = '/v1/sessions/{sessionId}/streamMessage'

/**
 * How long a client waits on a stream. The service gives its AI provider 30 s to connect and
 * send the first piece and 30 s between pieces, then ends the stream with an error part; a client
 * waits a little longer for either, so it hears the service's reason rather than its own timeout.
 * A stream that fails to start (unreachable, 5xx, 429) is tried once more after a short pause.
 * (Kept here rather than in time-limits.ts: only the stream's chunk of the widget reads them.)
 */
export const STREAM_LIMITS = { startMs: 45_000, idleMs: 45_000, startRetry: { retries: 1, baseDelayMs: 1_500, maxDelayMs: 1_500 } } as const

/**
 * Longest line the parser accepts, in characters. A text part is one piece of the answer (a
 * replayed answer is sent in pieces too); anything longer is a broken or hostile stream.
 */
export const MAX_STREAM_LINE_LENGTH = 1_048_576

export interface StreamErrorLog {
  status: string
  description: string
  details?: unknown
  context?: string
}

export type StreamPart =
  | { type: 'text'; text: string }
  | { type: 'error'; log: StreamErrorLog }
  | { type: 'finish'; finishReason: string }

/** A line that does not follow the format (or is over the cap): the stream cannot be trusted. */
export class StreamFormatError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'StreamFormatError'
  }
}

export const textPart = (text: string): string => `0:${JSON.stringify(text)}\n`
export const errorPart = (log: StreamErrorLog): string => `3:${JSON.stringify(JSON.stringify(log))}\n`
export const finishPart = (finishReason = 'stop'): string => `d:${JSON.stringify({ finishReason })}\n`

function errorLog(value: unknown): StreamErrorLog {
  if (typeof value !== 'string') throw new StreamFormatError('An error part must carry a JSON string')
  let log: unknown
  try {
    log = JSON.parse(value)
  } catch {
    // Still an error: the text itself is the best description there is.
    return { status: 'error', description: value }
  }
  const record = typeof log === 'object' && log !== null ? (log as Record<string, unknown>) : {}
  return {
    status: typeof record.status === 'string' ? record.status : 'error',
    description: typeof record.description === 'string' ? record.description : 'The answer could not be completed',
    ...(record.details !== undefined && { details: record.details }),
    ...(typeof record.context === 'string' && { context: record.context }),
  }
}

/** One line (without its newline) as a part, or null for a code the client ignores. */
export function parseStreamLine(line: string): StreamPart | null {
  const colon = line.indexOf(':')
  if (colon < 1) throw new StreamFormatError('A stream line must be <code>:<JSON>')
  const code = line.slice(0, colon)
  if (code !== '0' && code !== '3' && code !== 'd') return null
  let value: unknown
  try {
    value = JSON.parse(line.slice(colon + 1))
  } catch {
    throw new StreamFormatError(`The value of a "${code}" part is not JSON`)
  }
  if (code === '0') {
    if (typeof value !== 'string') throw new StreamFormatError('A text part must carry a JSON string')
    return { type: 'text', text: value }
  }
  if (code === '3') return { type: 'error', log: errorLog(value) }
  const reason = (value as { finishReason?: unknown } | null)?.finishReason
  return { type: 'finish', finishReason: typeof reason === 'string' ? reason : 'stop' }
}

export interface StreamParser {
  /** Parts completed by this chunk; a chunk may end anywhere, inside a line or a UTF-8 sequence. */
  push(chunk: Uint8Array | string): StreamPart[]
  /** The end of the body: a last line without its newline is still a part. */
  end(): StreamPart[]
}

/** An incremental parser of the data stream (see the top of this file). */
export function createStreamParser(maxLineLength = MAX_STREAM_LINE_LENGTH): StreamParser {
  const decoder = new TextDecoder('utf-8')
  let pending = ''
  const lines = (text: string, last: boolean): StreamPart[] => {
    // Only the new text can hold a newline: a long line is scanned once, not once per chunk.
    const from = pending.length
    pending += text
    const parts: StreamPart[] = []
    let start = 0
    for (let newline = pending.indexOf('\n', from); newline >= 0; newline = pending.indexOf('\n', start)) {
      collect(pending.slice(start, newline), parts)
      start = newline + 1
    }
    pending = pending.slice(start)
    if (pending.length > maxLineLength) throw new StreamFormatError(`A stream line is longer than ${maxLineLength} characters`)
    if (last && pending) {
      collect(pending, parts)
      pending = ''
    }
    return parts
  }
  const collect = (raw: string, parts: StreamPart[]) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (line.length > maxLineLength) throw new StreamFormatError(`A stream line is longer than ${maxLineLength} characters`)
    if (!line.trim()) return
    const part = parseStreamLine(line)
    if (part) parts.push(part)
  }
  return {
    push: (chunk) => lines(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }), false),
    end: () => lines(decoder.decode(), true),
  }
}
