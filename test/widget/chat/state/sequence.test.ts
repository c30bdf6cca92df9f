import { describe, expect, it } from 'vitest'
import { orderStep } from '../../../../src/widget/chat/state/sequence'

const message = (id: string) => ({ id, type: 'text', content: { plainText: id } })
const action = (type: string, lastBubbleBlockId?: string) => ({ type, lastBubbleBlockId })
const labels = (items: ReturnType<typeof orderStep>) =>
  items.map((item) => (item.kind === 'message' ? item.message.id : `${item.action.type}@${item.action.lastBubbleBlockId ?? '-'}`))

describe('orderStep', () => {
  it('runs each action right after the bubble its lastBubbleBlockId names, in the order sent', () => {
    const items = orderStep(
      [message('a'), message('b'), message('c')],
      [action('wait', 'b'), action('redirect', 'a'), action('script', 'b')],
    )
    expect(labels(items)).toEqual(['a', 'redirect@a', 'b', 'wait@b', 'script@b', 'c'])
  })

  it('runs actions without lastBubbleBlockId, or naming no bubble of this step, before any bubble', () => {
    const items = orderStep([message('a')], [action('wait'), action('redirect', 'gone'), action('script', 'a')])
    expect(labels(items)).toEqual(['wait@-', 'redirect@gone', 'a', 'script@a'])
  })

  it('anchors actions to the first of two bubbles sharing an id', () => {
    expect(labels(orderStep([message('a'), message('a')], [action('wait', 'a')]))).toEqual(['a', 'wait@a', 'a'])
  })

  it('handles a step with only actions or nothing at all', () => {
    expect(labels(orderStep(undefined, [action('wait')]))).toEqual(['wait@-'])
    expect(orderStep()).toEqual([])
  })
})
