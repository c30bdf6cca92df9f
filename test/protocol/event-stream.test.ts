import { describe, expect, it } from 'vitest'
import { createEventStreamParser, EventStreamFormatError, formatEvent } from '../../src/protocol/event-stream'

describe('the event stream parser', () => {
  it('reads what the service writes, one event per blank line, with its id and type', () => {
    const parser = createEventStreamParser()
    const events = parser.push(`${formatEvent('message', { text: 'hi' }, 1)}: keep-alive\n\n${formatEvent('typing', { typing: true })}`)
    expect(events).toEqual([
      { type: 'message', data: '{"text":"hi"}', id: '1' },
      { type: 'typing', data: '{"typing":true}' },
    ])
    expect(parser.lastEventId).toBe('1')
  })

  it('gives the same events whatever the chunks, CRLF pairs and multi-byte characters split across them', () => {
    const wire = new TextEncoder().encode('id: 7\r\nevent: message\r\ndata: {"text":"été ✓"}\r\ndata: second\r\n\r\ndata: plain\n\n')
    const whole = createEventStreamParser().push(wire)
    for (let size = 1; size < 8; size++) {
      const parser = createEventStreamParser()
      const events = []
      for (let at = 0; at < wire.length; at += size) events.push(...parser.push(wire.slice(at, at + size)))
      expect(events).toEqual(whole)
    }
    expect(whole).toEqual([
      { type: 'message', data: '{"text":"été ✓"}\nsecond', id: '7' },
      { type: 'message', data: 'plain' },
    ])
  })

  it('refuses a line longer than its limit instead of holding it', () => {
    const parser = createEventStreamParser(16)
    expect(() => parser.push(`data: ${'x'.repeat(20)}`)).toThrow(EventStreamFormatError)
  })
})
