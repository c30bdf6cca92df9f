import { act, cleanup } from '@testing-library/preact'
import { options, type VNode } from 'preact'
import { afterEach, describe, expect, it } from 'vitest'
import { CHUNK_SIZE } from '../../../src/widget/chat/index'
import { GuestBubble, HostBubble } from '../../../src/widget/ui/bubbles'
import { settle, startResponse, text, textInput } from '../chat/fake-client'
import { renderApp } from './render-app'

type RenderHook = (vnode: VNode) => void
// Preact's render hook, under its stable mangled name (the one @preact/signals hooks into too).
const hooks = options as unknown as { __r?: RenderHook }

function countRenders() {
  const previous = hooks.__r
  const counts = { host: 0, guest: 0 }
  hooks.__r = (vnode) => {
    if (vnode.type === HostBubble) counts.host++
    if (vnode.type === GuestBubble) counts.guest++
    previous?.(vnode)
  }
  return { counts, stop: () => (hooks.__r = previous) }
}

afterEach(cleanup)

describe('TranscriptView', () => {
  it('renders only the new bubbles when a step appends to a long conversation', async () => {
    // Enough answers to fill several chunks, each reply one host bubble.
    const turns = CHUNK_SIZE * 2
    const replies = Array.from({ length: turns }, (_, i) => ({ messages: [text(`m${i}`, `Reply ${i}`)], input: textInput(`in${i}`) }))
    const setup = renderApp({ start: startResponse({ messages: [text('m', 'Hello')], input: textInput() }), replies })
    await act(async () => {
      setup.conversation.start()
      await settle()
    })
    for (let i = 0; i < turns - 1; i++) {
      await act(async () => {
        setup.conversation.send(`answer ${i}`)
        await settle()
      })
    }
    const renders = countRenders()
    await act(async () => {
      setup.conversation.send('last answer')
      await settle()
    })
    renders.stop()
    // One new host bubble; the new guest bubble renders for its creation and its `sent` status.
    expect(renders.counts.host).toBe(1)
    expect(renders.counts.guest).toBeLessThanOrEqual(2)
    expect(setup.view.container.querySelectorAll('[part~="host-bubble"]').length).toBe(turns + 1)
  })
})
