import { describe, expect, it } from 'vitest'
import { conversation } from '../../src/admin/results/conversation'
import type { Group } from '../../src/protocol/flow'
import type { ResultDetail } from '../../src/protocol/results'

const text = (id: string, plain: string) => ({ id, type: 'text', content: { richText: [{ type: 'p', children: [{ text: plain }] }] } })
const FLOW: { groups: Group[] } = {
  groups: [
    { id: 'g1', title: 'Name', blocks: [text('t1', 'Hello!'), text('t2', 'What is your name?'), { id: 'ask-name', type: 'text input' }] },
    { id: 'g2', title: 'Topic', blocks: [{ id: 'ask-topic', type: 'choice input' }, text('t3', 'Thanks {{Name}}, {{Unknown}}')] },
    { id: 'g3', title: 'Plan', blocks: [text('t4', 'Which plan, {{Name}}?'), { id: 'ask-plan', type: 'choice input' }] },
  ],
}
const answer = (blockId: string, groupId: string, value: string, display = value) => ({
  blockId,
  groupId,
  columnId: blockId,
  value,
  display,
  sessionId: 's1',
  createdAt: '2026-11-26T10:00:00Z',
})
const result = (answers: ResultDetail['result']['answers']) => ({
  answers,
  variables: [
    { id: 'v1', name: 'Name', value: 'Ada' },
    { id: 'v2', name: null, value: 'gone' },
  ],
})

describe('a result read as the conversation the visitor saw', () => {
  it('puts the text bubbles just before each input above its answer, in the order answered, variables filled', () => {
    const turns = conversation(
      FLOW,
      result([answer('ask-name', 'g1', 'Ada'), answer('ask-plan', 'g3', 'Team'), answer('ask-name', 'g1', 'Ada L.')]),
    )
    expect(turns).toEqual([
      { questions: ['Hello!', 'What is your name?'], answer: 'Ada' },
      { questions: ['Which plan, Ada?'], answer: 'Team' },
      { questions: ['Hello!', 'What is your name?'], answer: 'Ada L.' },
    ])
  })

  it('keeps an answer with no question when its block has none before it or is no longer in the flow', () => {
    const turns = conversation(FLOW, result([answer('ask-topic', 'g2', 'Returns'), answer('old-block', 'g9', 'kept')]))
    expect(turns).toEqual([
      { questions: [], answer: 'Returns' },
      { questions: [], answer: 'kept' },
    ])
  })

  it("shows what the visitor's bubble showed, not the value the flow stored", () => {
    const turns = conversation(FLOW, result([answer('ask-plan', 'g3', 'plan_team', 'Team (5 seats)')]))
    expect(turns).toEqual([{ questions: ['Which plan, Ada?'], answer: 'Team (5 seats)' }])
  })
})
