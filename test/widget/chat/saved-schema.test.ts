import { describe, expect, it } from 'vitest'
import { SAVED_VERSION, parseSavedConversation } from '../../../src/widget/chat/saved-schema'

const record = () => ({
  version: SAVED_VERSION,
  publishedAt: '2026-01-01T00:00:00.000Z',
  sessionId: 's1',
  resultId: 'r1',
  entries: [
    { kind: 'host', message: { id: 'm1', type: 'text', content: { plainText: 'Hi' } } },
    { kind: 'guest', text: 'Ada', status: 'sent' },
  ],
  avatars: {},
  progress: null,
  pending: null,
  step: null,
  input: null,
  ended: false,
})

describe('parseSavedConversation', () => {
  it('reads a record this version saved', () => {
    const saved = parseSavedConversation(record())
    expect(saved?.entries.map((entry) => entry.kind)).toEqual(['host', 'guest'])
  })

  it('reads which actions of the step had started (a record without it: none had)', () => {
    expect(parseSavedConversation({ ...record(), started: [0, 2] })?.started).toEqual([0, 2])
    expect(parseSavedConversation(record())?.started).toBeUndefined()
  })

  // Each names what a stale, truncated or hand-edited record gets wrong: it is none, never half-read.
  const broken: Array<[string, (data: ReturnType<typeof record>) => unknown]> = [
    ['another version', (data) => ({ ...data, version: SAVED_VERSION + 1 })],
    ['a version as text', (data) => ({ ...data, version: String(SAVED_VERSION) })],
    ['an empty session id', (data) => ({ ...data, sessionId: '' })],
    ['an entry of an unknown kind', (data) => ({ ...data, entries: [{ ...data.entries[1], kind: 'system' }] })],
    ['a guest entry marked as a host one', (data) => ({ ...data, entries: [{ ...data.entries[1], kind: 'host' }] })],
    ['an unknown reply status', (data) => ({ ...data, entries: [{ ...data.entries[1], status: 'delivered' }] })],
    ['started actions named as text', (data) => ({ ...data, started: ['0'] })],
    ['a missing field', ({ ended: _ended, ...data }) => data],
  ]
  for (const [name, edit] of broken) {
    it(`refuses ${name}`, () => {
      expect(parseSavedConversation(edit(record()))).toBeUndefined()
    })
  }
})
