import { describe, expect, it } from 'vitest'
import type { VariableValue } from '../../../../../src/protocol/index'
import { MAX_DYNAMIC_ITEMS } from '../../../../../src/service/engine/blocks/inputs/choice-items'
import { buildFlow, Conversation, edge, input, text, texts, varId } from '../../support/flow-builder'

/** A choice whose items come from `Options` (falling back to its own item), then a goodbye. */
function dynamicChoice(ownItems = [{ id: 'own', content: 'Own item' }]) {
  return buildFlow({
    variables: ['Options', 'Picked', 'Pictures', 'Titles'],
    groups: [
      {
        id: 'g',
        blocks: [
          input(
            'pick',
            'choice input',
            { variableId: varId('Picked'), dynamicVariableId: varId('Options') },
            { items: ownItems, outgoingEdgeId: 'e-next' },
          ),
        ],
      },
      { id: 'next', blocks: [text('bye', 'You picked {{Picked}}')] },
    ],
    edges: [edge('e-next', 'pick', 'next')],
  })
}

const startWith = (flow: ReturnType<typeof dynamicChoice>, values: Record<string, VariableValue>) => {
  const conversation = new Conversation(flow)
  const restoredVariables = Object.fromEntries(Object.entries(values).map(([name, value]) => [varId(name), value]))
  return { conversation, first: conversation.start({ restoredVariables }) }
}

describe('dynamic choice items', () => {
  it('builds one item per entry of the list variable, each answer leaving by the block’s edge', async () => {
    const { conversation, first } = startWith(dynamicChoice(), { Options: ['Red', 'Green'] })
    expect((await first).response.input?.items).toEqual([
      { id: 'pick-dynamic-0', content: 'Red' },
      { id: 'pick-dynamic-1', content: 'Green' },
    ])
    const outcome = await conversation.answer('Green')
    expect(texts(outcome)).toEqual(['You picked Green'])
  })

  it('an empty or unset list falls back to the block’s own items', async () => {
    for (const Options of [[], null]) {
      const { first } = startWith(dynamicChoice(), { Options })
      expect((await first).response.input?.items?.map((item) => item.content)).toEqual(['Own item'])
    }
  })

  it('with no item at all, the choice is skipped with a log instead of stranding the visitor', async () => {
    const { first } = startWith(dynamicChoice([]), { Options: [] })
    const outcome = await first
    expect(texts(outcome)).toEqual(['You picked '])
    expect(outcome.response.logs).toEqual([
      expect.objectContaining({ status: 'warning', details: expect.objectContaining({ blockId: 'pick' }) }),
    ])
  })

  it('caps the number of items built from a list', async () => {
    const many = Array.from({ length: MAX_DYNAMIC_ITEMS + 50 }, (_, i) => `Option ${i}`)
    const { first } = startWith(dynamicChoice(), { Options: many })
    expect((await first).response.input?.items).toHaveLength(MAX_DYNAMIC_ITEMS)
  })

  it('picture choice dynamicItems zip pictures, titles and descriptions', async () => {
    const flow = buildFlow({
      variables: ['Pictures', 'Titles', 'Picked'],
      groups: [
        {
          id: 'g',
          blocks: [
            input(
              'pics',
              'picture choice input',
              {
                variableId: varId('Picked'),
                dynamicItems: { isEnabled: true, pictureSrcsVariableId: varId('Pictures'), titlesVariableId: varId('Titles') },
              },
              { items: [{ id: 'own', pictureSrc: 'https://example.com/own.png' }] },
            ),
          ],
        },
      ],
    })
    const outcome = await new Conversation(flow).start({
      restoredVariables: { [varId('Pictures')]: ['https://example.com/a.png', 'https://example.com/b.png'], [varId('Titles')]: ['A'] },
    })
    expect(outcome.response.input?.items).toEqual([
      { id: 'pics-dynamic-0', pictureSrc: 'https://example.com/a.png', title: 'A' },
      { id: 'pics-dynamic-1', pictureSrc: 'https://example.com/b.png' },
    ])
  })
})
