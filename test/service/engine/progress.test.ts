import { describe, expect, it } from 'vitest'
import type { Theme } from '../../../src/protocol/index'
import { indexFlow } from '../../../src/service/engine/core/flow-index'
import { longestPaths } from '../../../src/service/engine/progress'
import { buildFlow, Conversation, edge, input, text, varId } from './support/flow-builder'

const withProgress: Theme = { general: { progressBar: { isEnabled: true } } }

function survey(theme?: Theme) {
  return buildFlow({
    theme,
    variables: ['A', 'B', 'C'],
    groups: [
      { id: 'g1', blocks: [text('t1', 'Hi'), input('a', 'text input', { variableId: varId('A') }, { outgoingEdgeId: 'e1' })] },
      {
        id: 'g2',
        blocks: [
          input('b', 'text input', { variableId: varId('B') }),
          input('c', 'text input', { variableId: varId('C') }, { outgoingEdgeId: 'e2' }),
        ],
      },
      { id: 'g3', blocks: [text('t2', 'Thanks'), text('t3', 'Bye')] },
    ],
    edges: [edge('e1', 'a', 'g2'), edge('e2', 'c', 'g3')],
  })
}

describe('progress', () => {
  it('increases with every answer and is 100 at the end', async () => {
    const conversation = new Conversation(survey(withProgress))
    const steps = [
      await conversation.start(),
      await conversation.answer('x'),
      await conversation.answer('y'),
      await conversation.answer('z'),
    ]
    const progress = steps.map((step) => step.response.progress)
    for (const value of progress) expect(typeof value).toBe('number')
    expect(progress[0]).toBeGreaterThan(0)
    for (let i = 1; i < progress.length; i++) expect(progress[i]!).toBeGreaterThan(progress[i - 1]!)
    expect(progress.at(-1)).toBe(100)
    expect(progress.slice(0, -1).every((value) => value! < 100)).toBe(true)
  })

  it('is absent when the progress bar is disabled', async () => {
    const outcome = await new Conversation(survey()).start()
    expect(outcome.response).not.toHaveProperty('progress')
    const disabled = await new Conversation(survey({ general: { progressBar: { isEnabled: false } } })).start()
    expect(disabled.response).not.toHaveProperty('progress')
  })

  it('stays the same on a retry', async () => {
    const flow = buildFlow({
      theme: withProgress,
      groups: [{ id: 'g', blocks: [input('n', 'number input'), text('t', 'ok')] }],
    })
    const conversation = new Conversation(flow)
    const first = await conversation.start()
    const retry = await conversation.answer('not a number')
    expect(retry.response.progress).toBe(first.response.progress)
  })
})

describe('longestPaths', () => {
  it('counts the blocks of the longest way to an end, through edges and items', () => {
    const flow = buildFlow({
      groups: [
        {
          id: 'g1',
          blocks: [
            {
              id: 'choice',
              type: 'choice input',
              items: [
                { id: 'i1', outgoingEdgeId: 'short' },
                { id: 'i2', outgoingEdgeId: 'long' },
              ],
            },
          ],
        },
        { id: 'short-g', blocks: [text('s', 'S')] },
        { id: 'long-g', blocks: [text('l1', '1'), text('l2', '2'), text('l3', '3')] },
      ],
      edges: [edge('short', 'choice', 'short-g', { itemId: 'i1' }), edge('long', 'choice', 'long-g', { itemId: 'i2' })],
    })
    const table = longestPaths(indexFlow(flow))
    expect(table.get('choice')).toBe(4)
    expect(table.get('s')).toBe(1)
    expect(table.get('l1')).toBe(3)
  })

  it('terminates on loops and counts each loop once', () => {
    const flow = buildFlow({
      groups: [
        { id: 'a', blocks: [text('a1', 'A', { outgoingEdgeId: 'ab' })] },
        { id: 'b', blocks: [text('b1', 'B'), { id: 'back', type: 'Jump', options: { groupId: 'a' } }] },
      ],
      edges: [edge('ab', 'a1', 'b')],
    })
    const table = longestPaths(indexFlow(flow))
    expect(table.get('a1')).toBe(3)
    expect(table.get('b1')).toBeGreaterThanOrEqual(2)
  })

  it('handles very long flows without exhausting the call stack', () => {
    const blocks = Array.from({ length: 50_000 }, (_, i) => text(`t${i}`, 'x'))
    const table = longestPaths(indexFlow(buildFlow({ groups: [{ id: 'g', blocks }] })))
    expect(table.get('t0')).toBe(50_000)
  })

  it('is computed once per published flow', () => {
    const index = indexFlow(survey(withProgress))
    expect(longestPaths(index)).toBe(longestPaths(index))
  })
})
