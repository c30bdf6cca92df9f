import { describe, expect, it } from 'vitest'
import { parseSavedConversation, SAVED_VERSION } from '../../../../src/widget/chat/memory/saved-schema'

const common = () => ({
  publishedAt: '2026-01-01T00:00:00.000Z',
  sessionId: 's1',
  resultId: 'r1',
  entries: [
    { kind: 'host', message: { id: 'm1', type: 'text', content: { plainText: 'Hi' } } },
    { kind: 'guest', text: 'Ada', status: 'sent' },
  ],
  avatars: {},
  progress: null,
})

const record = () => ({ version: SAVED_VERSION, ...common(), stage: { tag: 'ended' } as Record<string, unknown> })

const input = { id: 'in1', type: 'text input', options: {} }
const step = { messages: [{ id: 'm2', type: 'text', content: { plainText: 'More' } }] }

/** A record as version 1 (before the stage was one value) saved it: four nullable fields. */
const v1 = (fields: Record<string, unknown> = {}) => ({
  version: 1,
  ...common(),
  pending: null,
  step: null,
  input: null,
  ended: false,
  ...fields,
})

describe('parseSavedConversation', () => {
  it('reads a record this version saved', () => {
    const saved = parseSavedConversation(record())
    expect(saved?.entries.map((entry) => entry.kind)).toEqual(['host', 'guest'])
    expect(saved?.stage).toEqual({ tag: 'ended' })
  })

  it('reads which actions of the step had started (a record without it: none had)', () => {
    expect(parseSavedConversation({ ...record(), stage: { tag: 'running-action', step, started: [0, 2] } })?.stage).toMatchObject({
      started: [0, 2],
    })
    expect(parseSavedConversation({ ...record(), stage: { tag: 'playing', step } })?.stage).not.toHaveProperty('started')
  })

  // A visitor mid-chat while the widget is upgraded keeps their chat: each of version 1's ways to
  // say where the chat stood is read as the stage it meant (in the order version 1 tried them).
  const legacy: Array<[string, Record<string, unknown>, unknown]> = [
    [
      'an answer in flight',
      { pending: { message: 'Ada', key: 'k1', shown: true, input }, input: { input } },
      { tag: 'sending', reply: { message: 'Ada', key: 'k1', shown: true, input } },
    ],
    [
      'a command in flight',
      { pending: { message: { type: 'command', command: 'go' }, key: 'k2', shown: false } },
      { tag: 'sending', reply: { message: { type: 'command', command: 'go' }, key: 'k2', shown: false } },
    ],
    ['a step being played, an action started', { step, started: [0] }, { tag: 'playing', step, started: [0] }],
    ['an input waiting, with a draft', { input: { input, draft: 'Ad' } }, { tag: 'waiting-input', input, draft: 'Ad' }],
    ['the end', { ended: true }, { tag: 'ended' }],
    ['nothing to come back to (a redirect away)', {}, { tag: 'idle' }],
  ]
  for (const [name, fields, stage] of legacy) {
    it(`reads version 1's ${name}`, () => {
      const saved = parseSavedConversation(v1(fields))
      expect(saved).toMatchObject({ version: SAVED_VERSION, sessionId: 's1', resultId: 'r1', entries: common().entries })
      expect(saved?.stage).toEqual(stage)
    })
  }

  // Each names what a stale, truncated or hand-edited record gets wrong: it is none, never half-read.
  const broken: Array<[string, (data: ReturnType<typeof record>) => unknown]> = [
    ['another version', (data) => ({ ...data, version: SAVED_VERSION + 1 })],
    ['a version as text', (data) => ({ ...data, version: String(SAVED_VERSION) })],
    ['an empty session id', (data) => ({ ...data, sessionId: '' })],
    ['an entry of an unknown kind', (data) => ({ ...data, entries: [{ ...data.entries[1], kind: 'system' }] })],
    ['a guest entry marked as a host one', (data) => ({ ...data, entries: [{ ...data.entries[1], kind: 'host' }] })],
    ['an unknown reply status', (data) => ({ ...data, entries: [{ ...data.entries[1], status: 'delivered' }] })],
    ['started actions named as text', (data) => ({ ...data, stage: { tag: 'playing', step, started: ['0'] } })],
    ['an unknown stage', (data) => ({ ...data, stage: { tag: 'dancing' } })],
    ['a stage without what it needs', (data) => ({ ...data, stage: { tag: 'waiting-input' } })],
    ['a missing stage', ({ stage: _stage, ...data }) => data],
    ['version 1 fields under version 2', (data) => ({ ...v1(), version: data.version })],
    [
      'version 1 with a missing field',
      () => {
        const { ended: _ended, ...data } = v1()
        return data
      },
    ],
  ]
  for (const [name, edit] of broken) {
    it(`refuses ${name}`, () => {
      expect(parseSavedConversation(edit(record()))).toBeUndefined()
    })
  }
})
