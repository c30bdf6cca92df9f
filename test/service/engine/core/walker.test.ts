import { describe, expect, it } from 'vitest'
import { MAX_BLOCKS_PER_STEP } from '../../../../src/service/engine/core/walker'
import { buildFlow, Conversation, edge, input, text, texts, varId } from '../support/flow-builder'

describe('walking a flow', () => {
  it('runs blocks in order, follows edges to groups and to a named block, and ends after the last block', async () => {
    const flow = buildFlow({
      groups: [
        { id: 'g1', blocks: [text('a', 'A'), text('b', 'B', { outgoingEdgeId: 'e1' })] },
        { id: 'g2', blocks: [text('c', 'skipped'), text('d', 'D', { outgoingEdgeId: 'e2' })] },
        { id: 'g3', blocks: [text('e', 'E')] },
      ],
      edges: [edge('e1', 'b', 'g2', { toBlockId: 'd' }), edge('e2', 'd', 'g3')],
    })
    const outcome = await new Conversation(flow).start()
    expect(texts(outcome)).toEqual(['A', 'B', 'D', 'E'])
    expect(outcome.ended).toBe(true)
    expect(outcome.state.awaiting).toBeNull()
    expect(outcome.state.visitedBlockCount).toBe(4)
  })

  it('stops at an input and resumes after it', async () => {
    const flow = buildFlow({
      variables: ['Name'],
      groups: [
        { id: 'g', blocks: [text('hi', 'Hi'), input('name', 'text input', { variableId: varId('Name') }), text('bye', 'Bye {{Name}}')] },
      ],
    })
    const conversation = new Conversation(flow)
    const first = await conversation.start()
    expect(texts(first)).toEqual(['Hi'])
    expect(first.response.input).toMatchObject({ id: 'name', type: 'text input' })
    expect(first.state.awaiting).toEqual({ kind: 'input', groupId: 'g', blockId: 'name' })
    const second = await conversation.answer('Ada')
    expect(texts(second)).toEqual(['Bye Ada'])
    expect(second.ended).toBe(true)
  })

  it('skips unsupported blocks with an info log and follows their edge', async () => {
    const flow = buildFlow({
      groups: [
        { id: 'g1', blocks: [text('a', 'A'), { id: 'hook', type: 'Webhook', outgoingEdgeId: 'e1', options: {} }] },
        { id: 'g2', blocks: [{ id: 'mystery', type: 'Something new' }, text('b', 'B')] },
      ],
      edges: [edge('e1', 'hook', 'g2')],
    })
    const outcome = await new Conversation(flow).start()
    expect(texts(outcome)).toEqual(['A', 'B'])
    expect(outcome.response.logs).toEqual([
      {
        status: 'info',
        description: 'HTTP request skipped: the request it names is not part of the flow',
        details: { blockId: 'hook', type: 'Webhook' },
      },
      { status: 'info', description: 'Block type Something new is not supported', details: { blockId: 'mystery', type: 'Something new' } },
    ])
  })

  // Cards without a card to show are passed over like an empty choice (payment: payment.test.ts).
  it.each(['cards', 'openai', 'mistral', 'OpenAI'])(
    'an unsupported (or empty) %s block is logged with its id and type and never strands the visitor',
    async (type) => {
      const flow = buildFlow({
        groups: [
          { id: 'g1', blocks: [{ id: 'x', type, outgoingEdgeId: 'e1', options: {} }, text('never', 'Not next in group')] },
          { id: 'g2', blocks: [text('b', 'After it')] },
        ],
        edges: [edge('e1', 'x', 'g2')],
      })
      const outcome = await new Conversation(flow).start()
      expect(texts(outcome)).toEqual(['After it'])
      expect(outcome.response.input).toBeUndefined()
      expect(outcome.response.logs).toEqual([expect.objectContaining({ details: { blockId: 'x', type } })])
    },
  )

  it('Jump continues at the target group or block', async () => {
    const flow = buildFlow({
      groups: [
        { id: 'g1', blocks: [text('a', 'A'), { id: 'j', type: 'Jump', options: { groupId: 'g2', blockId: 'c' } }, text('never', 'never')] },
        { id: 'g2', blocks: [text('b', 'skipped'), text('c', 'C')] },
      ],
    })
    expect(texts(await new Conversation(flow).start())).toEqual(['A', 'C'])
  })

  it('a Jump to a missing group is skipped with a warning', async () => {
    const flow = buildFlow({ groups: [{ id: 'g1', blocks: [{ id: 'j', type: 'Jump', options: { groupId: 'nope' } }, text('a', 'A')] }] })
    const outcome = await new Conversation(flow).start()
    expect(texts(outcome)).toEqual(['A'])
    expect(outcome.response.logs?.[0]).toMatchObject({ status: 'warning', details: { blockId: 'j' } })
  })

  it('an edge that leads nowhere ends the conversation with a warning', async () => {
    const flow = buildFlow({ groups: [{ id: 'g1', blocks: [text('a', 'A', { outgoingEdgeId: 'ghost' }), text('b', 'B')] }] })
    const outcome = await new Conversation(flow).start()
    expect(texts(outcome)).toEqual(['A'])
    expect(outcome.ended).toBe(true)
    expect(outcome.response.logs?.[0]).toMatchObject({ status: 'warning', details: { blockId: 'a' } })
  })

  it('stops an endless loop with an error log instead of hanging', async () => {
    const flow = buildFlow({
      groups: [{ id: 'loop', blocks: [text('a', 'again'), { id: 'j', type: 'Jump', options: { groupId: 'loop' } }] }],
    })
    const outcome = await new Conversation(flow).start()
    expect(outcome.ended).toBe(true)
    expect(outcome.response.messages).toHaveLength(MAX_BLOCKS_PER_STEP / 2)
    expect(outcome.response.logs).toEqual([
      { status: 'error', description: 'The flow ran 1000 blocks without waiting for an answer and was stopped', details: { blockId: 'a' } },
    ])
  })

  it('a flow without a start shows nothing and ends', async () => {
    const flow = buildFlow({ groups: [{ id: 'g', blocks: [text('a', 'A')] }] })
    flow.events = []
    const outcome = await new Conversation(flow).start()
    expect(outcome.response.messages).toEqual([])
    expect(outcome.ended).toBe(true)
    expect(outcome.response.logs?.[0]?.status).toBe('warning')
  })
})

describe('Condition blocks', () => {
  const conditionFlow = (blockEdge: boolean) =>
    buildFlow({
      variables: ['Age'],
      groups: [
        {
          id: 'g',
          blocks: [
            input('age', 'number input', { variableId: varId('Age') }),
            {
              id: 'cond',
              type: 'Condition',
              ...(blockEdge ? { outgoingEdgeId: 'e-else' } : {}),
              items: [
                {
                  id: 'adult',
                  outgoingEdgeId: 'e-adult',
                  content: { comparisons: [{ variableId: varId('Age'), comparisonOperator: 'Greater than', value: '17' }] },
                },
                { id: 'teen', content: { comparisons: [{ variableId: varId('Age'), comparisonOperator: 'Greater than', value: '12' }] } },
              ],
            },
            text('next', 'Next block'),
          ],
        },
        { id: 'adult-g', blocks: [text('adult-t', 'Adult')] },
        { id: 'else-g', blocks: [text('else-t', 'Else')] },
      ],
      edges: [edge('e-adult', 'cond', 'adult-g', { itemId: 'adult' }), edge('e-else', 'cond', 'else-g')],
    })

  const route = async (age: string, blockEdge: boolean) => {
    const conversation = new Conversation(conditionFlow(blockEdge))
    await conversation.start()
    return texts(await conversation.answer(age))
  }

  it('takes the first matching item’s edge', async () => {
    expect(await route('30', true)).toEqual(['Adult'])
  })
  it('a matching item without an edge ends that path: neither the next block nor the block’s edge', async () => {
    const conversation = new Conversation(conditionFlow(true))
    await conversation.start()
    const outcome = await conversation.answer('15')
    expect(texts(outcome)).toEqual([])
    expect(outcome.ended).toBe(true)
  })
  it('without a match, takes the block’s own edge', async () => {
    expect(await route('5', true)).toEqual(['Else'])
  })
  it('without a match or a block edge, goes on with the next block', async () => {
    expect(await route('5', false)).toEqual(['Next block'])
  })
})
