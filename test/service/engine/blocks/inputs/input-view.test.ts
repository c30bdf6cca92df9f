import { describe, expect, it } from 'vitest'
import type { Block, Settings } from '../../../../../src/protocol/index'
import { buildFlow, Conversation, varId } from '../../support/flow-builder'

async function inputFor(block: Block, prefilledVariables?: Record<string, string>, settings?: Settings) {
  const flow = buildFlow({ variables: ['Name', 'Low', 'Flavour'], settings, groups: [{ id: 'g', blocks: [block] }] })
  return (await new Conversation(flow).start({ prefilledVariables })).response.input
}

describe('the input sent to the widget', () => {
  it('keeps the block’s id, type, edge and options, with labels filled in', async () => {
    const view = await inputFor(
      {
        id: 'q',
        type: 'text input',
        outgoingEdgeId: 'e1',
        options: { variableId: varId('Name'), isLong: true, labels: { placeholder: 'Your name, {{Low}}?', button: 'Send' } },
      },
      { Low: 'friend' },
    )
    expect(view).toEqual({
      id: 'q',
      type: 'text input',
      outgoingEdgeId: 'e1',
      options: { variableId: varId('Name'), isLong: true, labels: { placeholder: 'Your name, friend?', button: 'Send' } },
    })
  })

  it('sends numeric options as numbers, resolving variables and dropping what is not a number', async () => {
    const view = await inputFor({ id: 'q', type: 'number input', options: { min: '{{Low}}', max: '100', step: 'abc' } }, { Low: '5' })
    expect(view?.options).toEqual({ min: 5, max: 100 })
  })

  it('fills choice items, leaves out hidden ones and never sends display conditions', async () => {
    const hideUnlessLime = {
      isEnabled: true,
      condition: { comparisons: [{ variableId: varId('Flavour'), comparisonOperator: 'Contains', value: 'Lime' }] },
    }
    const view = await inputFor(
      {
        id: 'q',
        type: 'picture choice input',
        items: [
          { id: 'a', title: 'For {{Name}}', pictureSrc: 'https://img.test/a.png', description: 'Nice' },
          { id: 'b', title: 'Lime mix', pictureSrc: 'https://img.test/b.png', displayCondition: hideUnlessLime },
        ],
        options: { isMultipleChoice: true, buttonLabel: 'Next' },
      },
      { Name: 'Ada', Flavour: 'Chocolate' },
    )
    expect(view?.items).toEqual([{ id: 'a', title: 'For Ada', pictureSrc: 'https://img.test/a.png', description: 'Nice' }])
    expect(view?.options).toEqual({ isMultipleChoice: true, buttonLabel: 'Next' })
  })

  it('prefills the input with its variable’s current value', async () => {
    const block: Block = { id: 'q', type: 'text input', options: { variableId: varId('Name') } }
    expect((await inputFor(block, { Name: 'Ada' }))?.prefilledValue).toBe('Ada')
    expect(await inputFor(block)).not.toHaveProperty('prefilledValue')
  })

  it('does not prefill when the flow turned input prefill off', async () => {
    const block: Block = { id: 'q', type: 'text input', options: { variableId: varId('Name') } }
    const view = await inputFor(block, { Name: 'Ada' }, { general: { isInputPrefillEnabled: false } })
    expect(view).not.toHaveProperty('prefilledValue')
  })

  it('prefills a multiple-choice input with the earlier list', async () => {
    const flow = buildFlow({
      variables: ['Flavour'],
      groups: [
        {
          id: 'g',
          blocks: [
            {
              id: 'q1',
              type: 'choice input',
              items: [
                { id: 'a', content: 'A' },
                { id: 'b', content: 'B' },
              ],
              options: { variableId: varId('Flavour'), isMultipleChoice: true },
            },
            { id: 'q2', type: 'text input', options: { variableId: varId('Flavour') } },
          ],
        },
      ],
    })
    const conversation = new Conversation(flow)
    await conversation.start()
    const next = await conversation.answer('A, B')
    expect(next.response.input?.prefilledValue).toBe('A, B')
  })
})
