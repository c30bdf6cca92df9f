import { describe, expect, it } from 'vitest'
import { MAX_EVENT_PAYLOAD_CHARS, MAX_FAILURE_MESSAGE_CHARS } from '../../../src/widget/sandbox/limits'
import { claimsSandboxProtocol, parseFrameMessage, parseRunMessage, parseSandboxJson } from '../../../src/widget/sandbox/messages'

const RUN_ID = 'a'.repeat(32)
const parse = (data: unknown) => ({ data: parseFrameMessage(data), success: parseFrameMessage(data) !== undefined })

describe('frame messages', () => {
  it('reads the ready, event and result messages of the protocol', () => {
    expect(parse({ type: 'flow-chat-sandbox:ready', version: 1 }).data).toEqual({ type: 'flow-chat-sandbox:ready', version: 1 })
    const event = { type: 'flow-chat-sandbox:event', runId: RUN_ID, name: 'analytics.track', payload: '{"a":1}' }
    expect(parse(event).data).toEqual(event)
    for (const result of [
      { type: 'flow-chat-sandbox:result', runId: RUN_ID, status: 'ok', value: '"x"' },
      { type: 'flow-chat-sandbox:result', runId: RUN_ID, status: 'ok' },
      { type: 'flow-chat-sandbox:result', runId: RUN_ID, status: 'error', message: 'TypeError: x' },
      { type: 'flow-chat-sandbox:result', runId: RUN_ID, status: 'too_large', message: 'big' },
      { type: 'flow-chat-sandbox:result', runId: RUN_ID, status: 'unavailable', message: 'no worker' },
    ]) {
      expect(parse(result).data).toEqual(result)
    }
  })

  it('keeps only the fields of the protocol', () => {
    const parsed = parse({ type: 'flow-chat-sandbox:result', runId: RUN_ID, status: 'ok', value: '1', html: '<b>' })
    expect(parsed.data).toEqual({ type: 'flow-chat-sandbox:result', runId: RUN_ID, status: 'ok', value: '1' })
  })

  it('refuses anything else', () => {
    const cases: unknown[] = [
      null,
      'flow-chat-sandbox:ready',
      { type: 'flow-chat-sandbox:run', runId: RUN_ID },
      { type: 'flow-chat-sandbox:result', runId: 'short', status: 'ok' },
      { type: 'flow-chat-sandbox:result', runId: RUN_ID.toUpperCase(), status: 'ok' },
      { type: 'flow-chat-sandbox:result', runId: RUN_ID, status: 'done' },
      { type: 'flow-chat-sandbox:result', runId: RUN_ID, status: 'ok', value: { not: 'json text' } },
      { type: 'flow-chat-sandbox:result', runId: RUN_ID, status: 'error', message: 'x'.repeat(MAX_FAILURE_MESSAGE_CHARS + 1) },
      { type: 'flow-chat-sandbox:event', runId: RUN_ID, name: '<img onerror=x>', payload: '1' },
      { type: 'flow-chat-sandbox:event', runId: RUN_ID, name: '9lives', payload: '1' },
      { type: 'flow-chat-sandbox:event', runId: RUN_ID, name: 'n'.repeat(65), payload: '1' },
      { type: 'flow-chat-sandbox:event', runId: RUN_ID, name: 'ok', payload: 'x'.repeat(MAX_EVENT_PAYLOAD_CHARS + 1) },
      { type: 'flow-chat-sandbox:event', runId: RUN_ID, name: 'ok', payload: 1 },
      { type: 'flow-chat-sandbox:ready', version: '1' },
    ]
    for (const data of cases) expect(parse(data).success, JSON.stringify(data)?.slice(0, 120)).toBe(false)
  })

  it('tells messages that claim the protocol from other traffic on the window', () => {
    expect(claimsSandboxProtocol({ type: 'flow-chat-sandbox:anything' })).toBe(true)
    expect(claimsSandboxProtocol({ type: 'webpackOk' })).toBe(false)
    expect(claimsSandboxProtocol('flow-chat-sandbox:ready')).toBe(false)
    expect(claimsSandboxProtocol(null)).toBe(false)
  })
})

describe('run messages', () => {
  const run = {
    type: 'flow-chat-sandbox:run',
    runId: RUN_ID,
    content: 'return a',
    names: ['a'],
    values: '[1]',
    allowNetwork: false,
    limits: { resultChars: 100_000, eventChars: 32_768, events: 50 },
    page: {
      href: 'https://shop.example/a?b=1#c',
      origin: 'https://shop.example',
      pathname: '/a',
      search: '?b=1',
      hash: '#c',
      referrer: '',
    },
  }

  it('reads a run, keeping only its fields', () => {
    expect(parseRunMessage({ ...run, extra: '<b>' })).toEqual(run)
  })

  it("refuses parameter names a script cannot have, and limits above the frame's own caps", () => {
    for (const changed of [
      { names: ['a b'] },
      { names: ['await'] },
      { names: ['a', 'a'] },
      { limits: { ...run.limits, resultChars: 10_000_000 } },
      { limits: { ...run.limits, events: 0 } },
      { allowNetwork: 'yes' },
      { runId: 'x' },
      { page: undefined },
      { page: { ...run.page, href: 42 } },
      { page: { ...run.page, search: 'x'.repeat(9000) } },
    ]) {
      expect(parseRunMessage({ ...run, ...changed }), JSON.stringify(changed)).toBeUndefined()
    }
  })
})

describe('parseSandboxJson', () => {
  it('parses JSON but drops __proto__ keys, at any depth', () => {
    const value = parseSandboxJson('{"__proto__":{"polluted":1},"a":{"__proto__":{"x":1},"b":2},"list":[{"__proto__":{}}]}')
    expect(value).toEqual({ a: { b: 2 }, list: [{}] })
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(Object.keys(value as object)).toEqual(['a', 'list'])
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined()
  })

  it('throws on text that is not JSON', () => {
    expect(() => parseSandboxJson('{nope')).toThrow(SyntaxError)
  })
})
