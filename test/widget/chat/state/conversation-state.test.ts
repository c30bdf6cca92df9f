import { effect } from '@preact/signals-core'
import { describe, expect, it } from 'vitest'
import { createState, type Saver } from '../../../../src/widget/chat/state/conversation-state'
import { guestEntry, hostEntry } from '../../../../src/widget/chat/state/entries'
import { newIdempotencyKey } from '../../../../src/widget/transport/index'
import { publishedFlow, text, textInput } from '../fake-client'

const SESSION = { id: 's1', resultId: 'r1', publishedAt: 'p1', storage: 'local' as const, resumed: true }

describe('the conversation state', () => {
  it('changes what a restore shows in one batch: a view reading it all renders once', () => {
    const state = createState(newIdempotencyKey)
    const seen: unknown[] = []
    const stop = effect(() => {
      seen.push([state.session.value.id, state.avatars.value.host, state.progress.value, state.transcript.count.value])
    })
    state.restore({
      session: SESSION,
      avatars: { host: 'h.png' },
      entries: [hostEntry(text('m1', 'Hi'), undefined), guestEntry('Yo', undefined)],
      progress: 40,
    })
    stop()
    expect(seen).toEqual([
      ['', undefined, null, 0],
      ['s1', 'h.png', 40, 2],
    ])
  })

  it("takes a step's avatars and progress, keeping an avatar the step does not change and the progress within 0 to 100", () => {
    const state = createState(newIdempotencyKey)
    state.applyStep({ dynamicTheme: { hostAvatarUrl: 'h.png' }, progress: 250 })
    state.applyStep({ dynamicTheme: { guestAvatarUrl: 'g.png' } })
    expect([state.avatars.value, state.progress.value]).toEqual([{ host: 'h.png', guest: 'g.png' }, 100])
  })

  it('gives an answer back as the draft only when the same input comes again; a restored session is confirmed once answered', () => {
    const state = createState(newIdempotencyKey)
    state.open(SESSION)
    state.noteAnswer('in1', 'ada@example')
    state.showInput(textInput('in2'))
    expect(state.stage.value).toMatchObject({ tag: 'waiting-input', input: { input: { id: 'in2' } } })
    expect(state.stage.value.tag === 'waiting-input' && state.stage.value.input.draft.value).toBe('')
    state.showInput(textInput('in1'))
    expect(state.stage.value.tag === 'waiting-input' && state.stage.value.input.draft.value).toBe('ada@example')
    state.confirm()
    expect(state.session.value).toEqual({ ...SESSION, resumed: false })
  })

  it('starts over empty but for the published flow, with the reason for the visitor, loading', () => {
    const state = createState(newIdempotencyKey)
    state.receivePublished(publishedFlow())
    state.restore({ session: SESSION, avatars: { guest: 'g.png' }, entries: [guestEntry('Yo', undefined)], progress: 10 })
    state.noteAnswer('in1', 'x')
    const renders: string[] = []
    const stop = effect(() => {
      renders.push(`${state.stage.value.tag} ${state.notice.value} ${state.transcript.count.value}`)
    })
    state.startOver('republished')
    stop()
    expect(renders).toEqual(['idle null 1', 'loading republished 0'])
    expect([state.session.value.id, state.avatars.value, state.progress.value, state.lastAnswer.value]).toEqual(['', {}, null, null])
    expect(state.publishedFlow.value?.id).toBe('pf1')
  })

  it("saves with the saver it is given (the remembered chunk's), from then on: at each stage entered, and when asked to keep what is shown", () => {
    const calls: string[] = []
    const saver: Saver = {
      checkpoint: (state, previous) => calls.push(`checkpoint ${previous.tag} → ${state.stage.peek().tag}`),
      save: () => calls.push('save'),
    }
    const state = createState(newIdempotencyKey)
    state.enter({ tag: 'loading' })
    state.keep()
    state.saveWith(saver)
    state.enter({ tag: 'ended' })
    state.keep()
    expect(calls).toEqual(['checkpoint loading → ended', 'save'])
  })
})
