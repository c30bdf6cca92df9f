import { afterAll, describe, expect, it } from 'vitest'
import type { Block } from '../../../../../src/protocol/index'
import { MAX_BLOCKS_PER_STEP } from '../../../../../src/service/engine/core/walker'
import { createEngine } from '../../../../../src/service/engine/index'
import { closeSandbox } from '../../../../../src/service/engine/sandbox/sandbox'
import { buildFlow, Conversation, edge, flowLoader, input, text, texts, varId } from '../../support/flow-builder'

afterAll(closeSandbox)

const link = (id: string, options: Record<string, unknown>, extra: Partial<Block> = {}): Block => ({
  id,
  type: 'Typebot link',
  options,
  ...extra,
})

/** A flow to link to: it greets, asks for a Name and sets a Plan. */
function childFlow() {
  return buildFlow({
    variables: ['Name', 'Plan', 'Child only'],
    groups: [
      {
        id: 'c1',
        blocks: [
          text('c-hi', 'Child says hi to {{Name}}'),
          input('c-name', 'text input', { variableId: varId('Name') }),
          { id: 'c-set', type: 'Set variable', options: { variableId: varId('Plan'), type: 'Custom', expressionToEvaluate: 'Pro' } },
          text('c-bye', 'Child done'),
        ],
      },
      { id: 'c-pricing', title: 'Pricing', blocks: [text('c-price', 'Prices for {{Name}}')] },
    ],
  })
}

function parentFlow(linkOptions: Record<string, unknown>) {
  return buildFlow({
    variables: ['Name', 'Plan', 'Target'],
    groups: [
      {
        id: 'p1',
        blocks: [
          text('p-hi', 'Parent before'),
          link('p-link', linkOptions),
          text('p-after', 'Parent after: {{Name}} / {{Plan}}'),
          input('p-end', 'text input'),
        ],
      },
    ],
  })
}

async function runLinked(linkOptions: Record<string, unknown>, prefilled: Record<string, string> = { Name: 'Ada' }) {
  const child = childFlow()
  const parent = parentFlow({ typebotId: child.flowId, ...linkOptions })
  const conversation = new Conversation(parent, createEngine(), { resultId: 'parent-result', flows: flowLoader(child) })
  const first = await conversation.start({ prefilledVariables: prefilled })
  return { child, conversation, first }
}

describe('Typebot link to another flow', () => {
  it('enters the linked flow with variables passed by name, waits inside it, then comes back after the link', async () => {
    const { child, conversation, first } = await runLinked({})
    expect(texts(first)).toEqual(['Parent before', 'Child says hi to Ada'])
    expect(first.response.input?.id).toBe('c-name')
    expect(first.state.links).toEqual([
      expect.objectContaining({ flowId: child.flowId, versionId: `version-${child.flowId}`, merge: false }),
    ])

    const second = await conversation.answer('Grace')
    expect(texts(second)).toEqual(['Child done', 'Parent after: Ada / '])
    expect(second.state.links).toBeUndefined()
    // Not merging (the version 6 default): the answer goes to the linked flow's own result.
    const childResultId = first.state.links![0]!.resultId!
    expect(second.answers).toEqual([expect.objectContaining({ blockId: 'c-name', value: 'Grace', resultId: childResultId })])
    expect(second.linkedResults).toEqual([
      {
        id: childResultId,
        flowId: child.flowId,
        variables: expect.objectContaining({ [varId('Name')]: 'Grace', [varId('Plan')]: 'Pro' }),
        isCompleted: true,
      },
    ])
    expect(second.state.variables[varId('Name')]).toBe('Ada')
  })

  it('with mergeResults, hands values back by name and keeps answers in the caller’s result', async () => {
    const { conversation } = await runLinked({ mergeResults: true })
    const second = await conversation.answer('Grace')
    expect(texts(second)).toEqual(['Child done', 'Parent after: Grace / Pro'])
    expect(second.answers).toEqual([expect.not.objectContaining({ resultId: expect.anything() })])
    expect(second.linkedResults).toBeUndefined()
    expect(second.state.variables).toMatchObject({ [varId('Name')]: 'Grace', [varId('Plan')]: 'Pro' })
  })

  it('enters a group by id, or by title through a {{Var}}', async () => {
    const byId = await runLinked({ groupId: 'c-pricing' })
    expect(texts(byId.first)).toEqual(['Parent before', 'Prices for Ada', 'Parent after: Ada / '])
    const byTitle = await runLinked({ groupId: '{{Target}}' }, { Name: 'Ada', Target: 'Pricing' })
    expect(texts(byTitle.first)).toEqual(['Parent before', 'Prices for Ada', 'Parent after: Ada / '])
  })

  it('a missing flow, a flow the loader does not serve (another workspace) or a missing group is logged and skipped', async () => {
    for (const options of [{ typebotId: 'unknown-flow' }, { typebotId: '' }, { groupId: 'nope' }]) {
      const child = childFlow()
      const parent = parentFlow({ typebotId: child.flowId, ...options })
      const conversation = new Conversation(parent, createEngine(), { flows: flowLoader(child) })
      const outcome = await conversation.start({ prefilledVariables: { Name: 'Ada' } })
      expect(texts(outcome)).toEqual(['Parent before', 'Parent after: Ada / '])
      expect(outcome.response.logs).toEqual([
        expect.objectContaining({ status: 'error', details: expect.objectContaining({ blockId: 'p-link' }) }),
      ])
    }
    // Without a loader (another workspace's flows are never served), the same.
    const outcome = await new Conversation(parentFlow({ typebotId: 'flow-x' })).start()
    expect(outcome.response.logs?.[0]?.description).toMatch(/no published flow "flow-x"/)
  })

  it('a session inside a linked flow that is no longer published ends with a log', async () => {
    const child = childFlow()
    const parent = parentFlow({ typebotId: child.flowId })
    const loader = flowLoader(child)
    const conversation = new Conversation(parent, createEngine(), { flows: { current: loader.current, version: async () => undefined } })
    await conversation.start()
    const outcome = await conversation.answer('Grace')
    expect(outcome.ended).toBe(true)
    expect(outcome.response.logs?.[0]?.description).toMatch(/linked flow .* no longer published/)
  })
})

describe('Typebot link to the current flow', () => {
  const flow = () =>
    buildFlow({
      variables: ['Count'],
      groups: [
        {
          id: 'main',
          blocks: [
            text('m1', 'Main'),
            link('to-tips', { typebotId: 'current', groupId: 'tips', mergeResults: false }),
            text('m2', 'Back in main: {{Count}}'),
          ],
        },
        {
          id: 'tips',
          blocks: [
            text('t1', 'A tip'),
            { id: 't-set', type: 'Set variable', options: { variableId: varId('Count'), expressionToEvaluate: '{{Count}} + 1' } },
          ],
        },
      ],
    })

  it('runs the group and comes back after the link, always sharing variables', async () => {
    const outcome = await new Conversation(flow()).start({ prefilledVariables: { Count: '1' } })
    expect(texts(outcome)).toEqual(['Main', 'A tip', 'Back in main: 2'])
    expect(outcome.ended).toBe(true)
    expect(outcome.linkedResults).toBeUndefined()
  })

  it('a link cycle stops at the block cap with an error instead of hanging', async () => {
    const loop = buildFlow({ groups: [{ id: 'g', blocks: [text('t', 'Again'), link('self', { typebotId: 'current', groupId: 'g' })] }] })
    const outcome = await new Conversation(loop).start()
    expect(outcome.ended).toBe(true)
    expect(outcome.response.messages?.length).toBe(MAX_BLOCKS_PER_STEP / 2)
    expect(outcome.response.logs?.at(-1)?.description).toMatch(/was stopped/)
  })

  it('nested links stop at the depth cap; the walk goes on', async () => {
    // Each pass links to the current group again and has a block to come back to.
    const nest = buildFlow({ groups: [{ id: 'g', blocks: [link('again', { typebotId: 'current', groupId: 'g' }), text('back', 'Back')] }] })
    const outcome = await new Conversation(nest).start()
    expect(outcome.response.logs?.[0]?.description).toMatch(/more than 32 linked flows/)
    expect(texts(outcome)).toHaveLength(33)
    expect(outcome.ended).toBe(true)
  })

  it('two flows linking to each other end at the depth cap', async () => {
    const a = buildFlow({ groups: [{ id: 'a', blocks: [link('a-link', { typebotId: 'flow-b' })] }] })
    const b = buildFlow({ groups: [{ id: 'b', blocks: [link('b-link', { typebotId: a.flowId })] }] })
    b.flowId = 'flow-b'
    const outcome = await new Conversation(a, createEngine(), { flows: flowLoader(a, b) }).start()
    expect(outcome.ended).toBe(true)
    expect(outcome.response.logs?.map((log) => log.description)).toEqual(['Linked flow skipped: more than 32 linked flows are open'])
  })
})

describe('Return', () => {
  const flow = () =>
    buildFlow({
      variables: ['Choice'],
      groups: [
        {
          id: 'welcome',
          blocks: [
            { id: 'jump', type: 'Jump', options: { groupId: 'hey' } },
            input('pick', 'choice input', { variableId: varId('Choice') }, { items: [{ id: 'i1', content: 'Hi!' }] }),
          ],
        },
        { id: 'hey', blocks: [text('hey-t', 'Hey!'), { id: 'ret', type: 'Return' }, text('never', 'Never shown')] },
      ],
    })

  it('goes back to the block after the Jump that started the detour', async () => {
    const outcome = await new Conversation(flow()).start()
    expect(texts(outcome)).toEqual(['Hey!'])
    expect(outcome.response.input?.id).toBe('pick')
    expect(outcome.state.returnMark).toBeUndefined()
  })

  it('without a detour, does nothing and the group goes on', async () => {
    const plain = buildFlow({ groups: [{ id: 'g', blocks: [text('a', 'One'), { id: 'ret', type: 'Return' }, text('b', 'Two')] }] })
    expect(texts(await new Conversation(plain).start())).toEqual(['One', 'Two'])
  })

  it('a Jump to a group title held in a variable works like one to its id', async () => {
    const byTitle = buildFlow({
      variables: ['Where'],
      groups: [
        { id: 'g', blocks: [{ id: 'jump', type: 'Jump', options: { groupId: '{{Where}}' } }] },
        { id: 'g2', title: 'Second', blocks: [text('s', 'Second group')] },
      ],
    })
    expect(texts(await new Conversation(byTitle).start({ prefilledVariables: { Where: 'Second' } }))).toEqual(['Second group'])
  })
})

describe('edges out of linked flows', () => {
  it('a link block with an edge resumes along that edge', async () => {
    const child = buildFlow({ groups: [{ id: 'c', blocks: [text('c1', 'Child')] }] })
    const parent = buildFlow({
      groups: [
        { id: 'p', blocks: [link('l', { typebotId: child.flowId }, { outgoingEdgeId: 'e-next' }), text('skipped', 'Skipped')] },
        { id: 'next', blocks: [text('n', 'Next group')] },
      ],
      edges: [edge('e-next', 'l', 'next')],
    })
    const outcome = await new Conversation(parent, createEngine(), { flows: flowLoader(child) }).start()
    expect(texts(outcome)).toEqual(['Child', 'Next group'])
  })
})
