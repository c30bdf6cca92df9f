import { describe, expect, it } from 'vitest'
import { answersSnapshot } from '../../../../../src/service/engine/blocks/http-request/answers-snapshot'
import { type BuiltRequest, buildHttpRequest, fillJson } from '../../../../../src/service/engine/blocks/http-request/request-builder'
import { indexFlow } from '../../../../../src/service/engine/core/flow-index'
import type { Variables } from '../../../../../src/service/engine/core/variables'
import { buildFlow, varId } from '../../support/flow-builder'
import { HOSTILE_HEADER_VALUES } from './fixtures/hostile-header-values'

const flow = buildFlow({
  variables: ['Name', 'Age', 'Topics', 'Token', 'Empty', 'Quote', 'Base', 'Json'],
  groups: [
    { id: 'g', title: 'Welcome', blocks: [] },
    { id: 'g2', title: 'Feedback', blocks: [] },
  ],
})
const index = indexFlow(flow)
const values: Variables = {
  [varId('Name')]: 'Ada "the Countess"',
  [varId('Age')]: '36',
  [varId('Topics')]: ['math', 'engines'],
  [varId('Token')]: 'abc123',
  [varId('Quote')]: 'line\nbreak',
  [varId('Base')]: 'https://api.example.com',
  [varId('Json')]: '{"nested":true}',
}
const scope = { index, variables: values, answersSnapshot: () => ({ submittedAt: 'now', Name: 'Ada' }) }

function build(webhook: Record<string, unknown>, options: Record<string, unknown> = {}): BuiltRequest {
  const outcome = buildHttpRequest({ webhook, ...options }, scope)
  if (!outcome.ok) throw new Error(outcome.reason)
  return outcome.request
}

describe('buildHttpRequest', () => {
  it('fills the URL, headers and query, dropping empty pairs and repeating keys', () => {
    const request = build({
      url: '{{Base}}/items?fixed=1',
      method: 'get',
      headers: [
        { id: 'h1', key: 'X-Token', value: '{{Token}}' },
        { id: 'h2', key: 'X-Empty', value: '{{Empty}}' },
        { id: 'h3', key: '', value: 'orphan' },
      ],
      queryParams: [
        { id: 'q1', key: 'tag', value: 'a' },
        { id: 'q2', key: 'tag', value: 'b' },
        { id: 'q3', key: 'name', value: '{{Name}}' },
        { id: 'q4', key: 'skip', value: '' },
      ],
    })
    expect(request).toEqual({
      url: 'https://api.example.com/items?fixed=1&tag=a&tag=b&name=Ada+%22the+Countess%22',
      method: 'GET',
      headers: { 'X-Token': 'abc123' },
      timeoutSeconds: 10,
    })
  })

  it('defaults to POST with the answers snapshot as JSON', () => {
    const request = build({ url: 'https://x.example' })
    expect(request.method).toBe('POST')
    expect(request.headers['content-type']).toBe('application/json')
    expect(JSON.parse(request.body!)).toEqual({ submittedAt: 'now', Name: 'Ada' })
    // A custom body that is empty or `{{state}}` is the snapshot too.
    expect(build({ url: 'https://x.example', body: '{{state}}' }, { isCustomBody: true }).data).toEqual({ submittedAt: 'now', Name: 'Ada' })
    expect(build({ url: 'https://x.example', body: '{"a":1}' }, { isCustomBody: false }).data).toEqual({ submittedAt: 'now', Name: 'Ada' })
  })

  it('fills a custom JSON body so it stays JSON', () => {
    const request = build(
      {
        url: 'https://x.example',
        method: 'PUT',
        body: '{\n "name": "{{Name}}", "age": {{Age}}, "topics": {{Topics}},\n "note": "{{Quote}}", "missing": {{Empty}}, "bare": {{Token}}, "obj": {{Json}} }',
      },
      { isCustomBody: true },
    )
    expect(request.headers['content-type']).toBe('application/json')
    expect(JSON.parse(request.body!)).toEqual({
      name: 'Ada "the Countess"',
      age: 36,
      topics: ['math', 'engines'],
      note: 'line\nbreak',
      missing: null,
      bare: 'abc123',
      obj: { nested: true },
    })
  })

  it('sends a body that is not JSON as text, and a single {{Var}} as its raw value', () => {
    const text = build({ url: 'https://x.example', body: 'Hello {{Name}}' }, { isCustomBody: true })
    expect(text).toMatchObject({ body: 'Hello Ada "the Countess"', data: 'Hello Ada "the Countess"' })
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8')
    const raw = build({ url: 'https://x.example', body: '{{Json}}' }, { isCustomBody: true })
    expect(raw).toMatchObject({ body: '{"nested":true}', data: { nested: true } })
    const list = build({ url: 'https://x.example', body: '{{Topics}}' }, { isCustomBody: true })
    expect(list.data).toEqual(['math', 'engines'])
  })

  it('form-encodes a JSON object when the Content-Type says so', () => {
    const request = build(
      {
        url: 'https://x.example',
        body: '{"name": "{{Name}}", "n": 2}',
        headers: [{ id: 'h', key: 'Content-Type', value: 'application/x-www-form-urlencoded' }],
      },
      { isCustomBody: true },
    )
    expect(request.body).toBe('name=Ada+%22the+Countess%22&n=2')
  })

  it('encodes Basic credentials written as user:password, and leaves encoded ones', () => {
    expect(
      build({ url: 'https://x.example', method: 'GET', headers: [{ id: 'h', key: 'Authorization', value: 'Basic user:{{Token}}' }] })
        .headers.Authorization,
    ).toBe(`Basic ${Buffer.from('user:abc123').toString('base64')}`)
    expect(
      build({ url: 'https://x.example', method: 'GET', headers: [{ id: 'h', key: 'Authorization', value: 'Basic dXNlcjpwdw==' }] }).headers
        .Authorization,
    ).toBe('Basic dXNlcjpwdw==')
  })

  it('sends no body with GET or HEAD, and bounds the timeout to 1–120 s', () => {
    expect(build({ url: 'https://x.example', method: 'HEAD', body: '{"a":1}' }, { isCustomBody: true })).not.toHaveProperty('body')
    expect(build({ url: 'https://x.example' }, { timeout: 300 }).timeoutSeconds).toBe(120)
    expect(build({ url: 'https://x.example' }, { timeout: '30' }).timeoutSeconds).toBe(30)
    expect(build({ url: 'https://x.example' }, { timeout: 0.2 }).timeoutSeconds).toBe(1)
    expect(build({ url: 'https://x.example' }, { timeout: -5 }).timeoutSeconds).toBe(10)
  })

  it('says why it cannot build a request', () => {
    const fail = (webhook: unknown) => buildHttpRequest({ webhook }, scope)
    expect(fail(undefined)).toEqual({ ok: false, reason: 'its URL is empty' })
    expect(fail({ url: '{{Empty}}' })).toEqual({ ok: false, reason: 'its URL is empty' })
    expect(fail({ url: 'https://x.example', method: 'TRACE' })).toEqual({ ok: false, reason: 'the method TRACE cannot be sent' })
    expect(fail({ url: 'https://x.example', headers: [{ id: 'h', key: 'Bad Header', value: 'x' }] })).toMatchObject({ ok: false })
  })

  it('never lets a value break out of a header line', () => {
    const request = build({ url: 'https://x.example', method: 'GET', headers: [{ id: 'h', key: 'X-Note', value: '{{Quote}}' }] })
    expect(request.headers['X-Note']).toBe('line break')
  })

  it.each(HOSTILE_HEADER_VALUES.map((entry) => [entry.tries, entry] as const))(
    'header value with %s: sent as UTF-8 bytes, or refused',
    (_tries, entry) => {
      const outcome = buildHttpRequest(
        {
          webhook: {
            url: 'https://x.example',
            method: 'GET',
            headers: [
              { id: 'a', key: 'Authorization', value: 'Bearer sk-live-SECRET {{Quote}}' },
              { id: 'v', key: 'X-Visitor', value: '{{Quote}}' },
            ],
          },
        },
        { ...scope, variables: { ...values, [varId('Quote')]: entry.value } },
      )
      if (entry.arrives === undefined) {
        expect(outcome).toEqual({ ok: false, reason: 'the Authorization header holds a control character no header can carry' })
        return
      }
      if (!outcome.ok) throw new Error(outcome.reason)
      // What `fetch` writes: one byte per character, which must decode as UTF-8 to what was meant.
      const decoded = (text: string) => Buffer.from(text, 'latin1').toString('utf8').trim()
      expect(decoded(outcome.request.headers['X-Visitor']!)).toBe(entry.arrives)
      expect(outcome.request.headers.Authorization).toBe(`Bearer sk-live-SECRET ${outcome.request.headers['X-Visitor']}`)
      expect(() => new Headers(outcome.request.headers)).not.toThrow()
    },
  )

  it('leaves out the headers the HTTP client writes itself', () => {
    const headers = ['Host', 'Content-Length', 'Transfer-Encoding', 'Connection', 'Keep-Alive', 'Upgrade', 'Expect', 'TE'].map(
      (key, i) => ({ id: `h${i}`, key, value: '1' }),
    )
    expect(
      build({ url: 'https://x.example', method: 'GET', headers: [...headers, { id: 'x', key: 'X-Kept', value: 'yes' }] }).headers,
    ).toEqual({ 'X-Kept': 'yes' })
  })
})

describe('fillJson', () => {
  it('tracks string literals across escaped quotes', () => {
    expect(JSON.parse(fillJson('{"a": "x\\"{{Name}}", "b": {{Age}}}', scope))).toEqual({ a: 'x"Ada "the Countess"', b: 36 })
  })
})

describe('answersSnapshot', () => {
  it('lists answers by variable name or group title, then variables by name, as text', () => {
    const snapshot = answersSnapshot(
      index,
      { [varId('Name')]: 'Ada', [varId('Topics')]: ['math', 'engines'], [varId('Empty')]: '' },
      [
        { blockId: 'b1', groupId: 'g', variableId: varId('Name'), value: 'Ada L.' },
        { blockId: 'b2', groupId: 'g2', value: 'Great' },
        { blockId: 'b3', groupId: 'g2', value: '' },
      ],
      new Date('2026-01-02T03:04:05.000Z'),
    )
    expect(snapshot).toEqual({ submittedAt: '2026-01-02T03:04:05.000Z', Name: 'Ada', Feedback: 'Great', Topics: 'math, engines' })
  })
})
