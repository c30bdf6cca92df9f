import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ChatMessage } from '../../../../src/protocol/index'
import { type PlayerContext, playStep } from '../../../../src/widget/chat/conversation/player'
import { DEFAULT_TYPING, type TypingSettings } from '../../../../src/widget/chat/conversation/typing'
import { orderStep } from '../../../../src/widget/chat/state/sequence'
import { sleep } from '../../../../src/widget/transport/index'
import { recordEvents } from '../fake-client'

const words = (id: string, count: number): ChatMessage => ({
  id,
  type: 'text',
  content: { plainText: Array.from({ length: count }, (_, i) => `w${i}`).join(' ') },
})

function harness(typing: Partial<TypingSettings>, alreadyShown = 0) {
  const shown: string[] = []
  const timeline: string[] = []
  let typingOn = false
  const events = recordEvents()
  const context: PlayerContext = {
    signal: new AbortController().signal,
    sleep,
    emit: events.emit,
    typing: { ...DEFAULT_TYPING, ...typing },
    isFirstBubble: () => shown.length + alreadyShown === 0,
    setTyping: (on) => {
      typingOn = on
      timeline.push(on ? 'typing' : 'idle')
    },
    show: (message) => {
      shown.push(message.id)
      timeline.push(`show ${message.id}`)
    },
    runAction: async (action) => {
      timeline.push(`action ${action.type}`)
      return {}
    },
  }
  return { context, shown, timeline, events, isTyping: () => typingOn }
}

describe('playStep typing emulation', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('shows the indicator for words / speed, capped by maxDelay, but not before the very first bubble', async () => {
    // 60 wpm: one word per second.
    const h = harness({ speed: 60, maxDelay: 5, isDisabledOnFirstMessage: true })
    const done = playStep(orderStep([words('first', 3), words('second', 3), words('long', 50)]), h.context)
    await vi.advanceTimersByTimeAsync(0)
    expect(h.shown).toEqual(['first'])
    expect(h.isTyping()).toBe(true)
    await vi.advanceTimersByTimeAsync(2999)
    expect(h.shown).toEqual(['first'])
    await vi.advanceTimersByTimeAsync(1)
    expect(h.shown).toEqual(['first', 'second'])
    await vi.advanceTimersByTimeAsync(4999)
    expect(h.shown).toEqual(['first', 'second'])
    await vi.advanceTimersByTimeAsync(1)
    await done
    expect(h.shown).toEqual(['first', 'second', 'long'])
    expect(h.isTyping()).toBe(false)
  })

  it('types before the first bubble when isDisabledOnFirstMessage is off', async () => {
    const h = harness({ speed: 60, maxDelay: 5, isDisabledOnFirstMessage: false })
    const done = playStep(orderStep([words('first', 2)]), h.context)
    await vi.advanceTimersByTimeAsync(1999)
    expect(h.shown).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    await done
    expect(h.timeline).toEqual(['typing', 'idle', 'show first'])
  })

  it('pauses delayBetweenBubbles seconds between two bubbles of one step', async () => {
    const h = harness({ speed: 60, maxDelay: 5, delayBetweenBubbles: 2 }, 1)
    const done = playStep(orderStep([words('a', 1), words('b', 1)]), h.context)
    await vi.advanceTimersByTimeAsync(1000)
    expect(h.shown).toEqual(['a'])
    await vi.advanceTimersByTimeAsync(2000)
    expect(h.shown).toEqual(['a'])
    await vi.advanceTimersByTimeAsync(1000)
    await done
    expect(h.shown).toEqual(['a', 'b'])
  })

  it('shows bubbles at once when typing emulation is off', async () => {
    const h = harness({ enabled: false }, 1)
    await playStep(orderStep([words('a', 40), words('b', 40)]), h.context)
    expect(h.shown).toEqual(['a', 'b'])
    expect(h.timeline).not.toContain('typing')
  })
})

describe('playStep order', () => {
  it('runs actions after their bubble and stops at one expecting a dedicated reply', async () => {
    const h = harness({ enabled: false })
    h.context.runAction = async (action) => {
      h.timeline.push(`action ${action.type}`)
      return action.expectsDedicatedReply ? { reply: 'r' } : {}
    }
    const outcome = await playStep(
      orderStep(
        [words('a', 1), words('b', 1), words('c', 1)],
        [
          { type: 'wait', lastBubbleBlockId: 'a' },
          { type: 'scriptToExecute', lastBubbleBlockId: 'b', expectsDedicatedReply: true },
        ],
      ),
      h.context,
    )
    expect(outcome).toEqual({ reply: 'r' })
    expect(h.timeline).toEqual(['show a', 'action wait', 'show b', 'action scriptToExecute'])
  })

  it('skips unknown message types with a warning', async () => {
    const h = harness({ enabled: false })
    await playStep(orderStep([{ id: 'x', type: 'hologram' }, words('a', 1)]), h.context)
    expect(h.shown).toEqual(['a'])
    expect(h.events.of('flowchat:log')[0]?.code).toBe('unknown-message')
  })
})
