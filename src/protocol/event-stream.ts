/**
 * Server-Sent Events on the wire (the HTML standard's `text/event-stream`), read incrementally:
 * for clients that cannot use `EventSource` (it sends no `Authorization` header: the console's
 * inbox, a team's own tools, the tests). Each chunk costs in proportion to its own length; a line
 * longer than the limit means a broken or hostile stream. No Node APIs, no schema library.
 */

export interface ServerSentEvent {
  /** `message` when the event names no type. */
  type: string
  data: string
  /** The event's `id:`, when it had one. */
  id?: string
}

export interface EventStreamParser {
  /** Events completed by this chunk (a chunk may split a line, or a UTF-8 sequence, anywhere). */
  push(chunk: Uint8Array | string): ServerSentEvent[]
  /** The id to send as `Last-Event-ID` on reconnecting: the last one any event set. */
  readonly lastEventId: string | undefined
}

export const MAX_EVENT_LINE_LENGTH = 256 * 1024

export class EventStreamFormatError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'EventStreamFormatError'
  }
}

export function createEventStreamParser(maxLineLength = MAX_EVENT_LINE_LENGTH): EventStreamParser {
  const decoder = new TextDecoder('utf-8')
  let pending = ''
  let lastEventId: string | undefined
  let type = ''
  let data: string[] = []
  let id: string | undefined
  let sawCarriageReturn = false

  const line = (text: string, out: ServerSentEvent[]) => {
    if (text === '') {
      // A blank line dispatches what was gathered (nothing when only comments came).
      if (data.length > 0) out.push({ type: type || 'message', data: data.join('\n'), ...(id === undefined ? {} : { id }) })
      type = ''
      data = []
      id = undefined
      return
    }
    if (text.startsWith(':')) return
    const colon = text.indexOf(':')
    const field = colon === -1 ? text : text.slice(0, colon)
    let value = colon === -1 ? '' : text.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'event') type = value
    else if (field === 'data') data.push(value)
    else if (field === 'id' && !value.includes('\0')) {
      id = value
      lastEventId = value
    }
    // `retry` and unknown fields are ignored: the client keeps its own reconnection policy.
  }

  const take = (text: string): ServerSentEvent[] => {
    const out: ServerSentEvent[] = []
    let from = 0
    for (let i = 0; i < text.length; i++) {
      const char = text.charCodeAt(i)
      if (char !== 10 && char !== 13) continue
      // "\r\n" is one line break: skip the "\n" of a pair split across chunks or within this one.
      if (char === 10 && sawCarriageReturn && i === from) {
        sawCarriageReturn = false
        from = i + 1
        continue
      }
      const full = pending + text.slice(from, i)
      pending = ''
      if (full.length > maxLineLength) throw tooLong(maxLineLength)
      line(full, out)
      sawCarriageReturn = char === 13
      from = i + 1
    }
    if (from < text.length) sawCarriageReturn = false
    if (pending.length + text.length - from > maxLineLength) throw tooLong(maxLineLength)
    pending += text.slice(from)
    return out
  }

  return {
    push: (chunk) => take(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true })),
    get lastEventId() {
      return lastEventId
    },
  }
}

const tooLong = (max: number) => new EventStreamFormatError(`A line of the event stream is longer than ${max} characters`)

/** One event as the service writes it: `id` (when stored), `event`, one `data` line of JSON. */
export function formatEvent(type: string, payload: unknown, id?: number | string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${type}\ndata: ${JSON.stringify(payload)}\n\n`
}
