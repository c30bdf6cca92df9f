import { afterAll, describe, expect, it } from 'vitest'
import type { Block } from '../../../../../src/protocol/index'
import { closeSandbox } from '../../../../../src/service/engine/sandbox/sandbox'
import { buildFlow, Conversation, edge, text, texts, varId } from '../../support/flow-builder'

afterAll(closeSandbox)

const cardsBlock = (items: unknown[], options: Record<string, unknown> = {}, extra: Partial<Block> = {}): Block =>
  ({ id: 'cards', type: 'cards', items, options, ...extra }) as Block

const cityCards = (options: Record<string, unknown> = {}) =>
  cardsBlock(
    [
      {
        id: 'paris',
        imageUrl: 'https://img.test/{{City}}.png',
        title: 'Paris for {{Name}}',
        description: 'A <b>beautiful</b> city',
        paths: [
          { id: 'p-continue', text: 'Continue' },
          { id: 'p-more', text: 'More info', outgoingEdgeId: 'e-more' },
        ],
        options: { internalValue: 'FR-75' },
      },
      {
        id: 'rome',
        title: 'Rome',
        paths: [{ id: 'r-go', text: 'Go' }],
        options: {
          displayCondition: {
            isEnabled: true,
            condition: { comparisons: [{ variableId: varId('Name'), comparisonOperator: 'Equal to', value: 'Ada' }] },
          },
        },
      },
    ],
    options,
    { outgoingEdgeId: 'e-block' },
  )

function cityFlow(options: Record<string, unknown> = {}) {
  return buildFlow({
    variables: ['Name', 'City', 'Chosen', 'Button', 'Code'],
    groups: [
      { id: 'g', blocks: [cityCards(options)] },
      { id: 'more', blocks: [text('more', 'More about {{Chosen}}')] },
      { id: 'next', blocks: [text('next', 'Next: {{Button}} {{Code}}')] },
    ],
    edges: [edge('e-more', 'cards', 'more'), edge('e-block', 'cards', 'next')],
  })
}

const mapping = {
  saveResponseMapping: [
    { id: 'm1', field: 'Title', variableId: varId('Chosen') },
    { id: 'm2', field: 'Button', variableId: varId('Button') },
    { id: 'm3', field: 'Internal Value', variableId: varId('Code') },
    { id: 'm4', field: 'constructor', variableId: varId('City') },
  ],
}

describe('cards', () => {
  it('are sent filled in, without hidden cards, internal values, edges or the save mapping', async () => {
    const chat = new Conversation(cityFlow(mapping))
    const started = await chat.start({ prefilledVariables: { Name: 'Grace', City: 'paris' } })
    const input = started.response.input!
    expect(input.type).toBe('cards')
    expect(input.options).toEqual({})
    expect(input.items).toEqual([
      {
        id: 'paris',
        imageUrl: 'https://img.test/paris.png',
        title: 'Paris for Grace',
        description: 'A <b>beautiful</b> city',
        paths: [
          { id: 'p-continue', text: 'Continue' },
          { id: 'p-more', text: 'More info' },
        ],
      },
    ])
  })

  it("branch by the button's path and save the mapped fields", async () => {
    const chat = new Conversation(cityFlow(mapping))
    await chat.start({ prefilledVariables: { Name: 'Grace' } })
    const more = await chat.answer({ type: 'text', text: 'p-more', replyId: 'p-more' })
    expect(texts(more)).toEqual(['More about Paris for Grace'])
    expect(more.response.lastMessageNewFormat).toBe('More info')
    expect(more.answers).toMatchObject([{ blockId: 'cards', value: 'Paris for Grace' }])

    const other = new Conversation(cityFlow(mapping))
    await other.start({ prefilledVariables: { Name: 'Grace' } })
    // A path without an edge leaves by the block's.
    expect(texts(await other.answer('p-continue'))).toEqual(['Next: Continue FR-75'])
    expect(other.variables[varId('City')]).toBeUndefined()
  })

  it("refuse a hidden card's button and unknown ids, and take a card's title", async () => {
    const chat = new Conversation(cityFlow())
    await chat.start({ prefilledVariables: { Name: 'Grace' } })
    const hidden = await chat.answer('r-go')
    expect(texts(hidden)).toEqual(["Please pick one of the cards' buttons."])
    expect(hidden.response.input?.type).toBe('cards')
    expect(texts(await chat.answer('paris for grace'))).toEqual(['Next:  '])

    const ada = new Conversation(cityFlow())
    await ada.start({ prefilledVariables: { Name: 'Ada' } })
    expect(ada.outcome.response.input?.items?.map((item) => item.id)).toEqual(['paris', 'rome'])
    expect(texts(await ada.answer('r-go'))).toEqual(['Next:  '])
  })

  it('make one card per entry of a list variable, buttons numbered per card', async () => {
    const flow = buildFlow({
      variables: ['Titles', 'Images', 'Picked'],
      groups: [
        {
          id: 'g',
          blocks: [
            cardsBlock(
              [
                {
                  id: 'tpl',
                  title: '{{Titles}}',
                  imageUrl: '{{Images}}',
                  description: 'Same for all',
                  paths: [
                    { id: 'x', text: 'Pick', outgoingEdgeId: 'e1' },
                    { id: 'y', text: 'Skip' },
                  ],
                },
              ],
              { saveResponseMapping: [{ field: 'Image URL', variableId: varId('Picked') }] },
            ),
          ],
        },
        { id: 'after', blocks: [text('t', 'Picked {{Picked}}')] },
      ],
      edges: [edge('e1', 'tpl', 'after')],
    })
    const chat = new Conversation(flow)
    // No list yet: the item is one card of its own.
    const started = await chat.start()
    expect(started.response.input?.items?.map((item) => item.id)).toEqual(['tpl'])

    const listed = new Conversation(flow)
    // Lists come from code or HTTP responses; restored values stand in for them here.
    const outcome = await listed.start({
      restoredVariables: { [varId('Titles')]: ['One', '<Two>'], [varId('Images')]: ['https://i.test/1.png', 'https://i.test/2.png'] },
    })
    expect(outcome.response.input?.items).toEqual([
      {
        id: 'tpl-0',
        title: 'One',
        imageUrl: 'https://i.test/1.png',
        description: 'Same for all',
        paths: [
          { id: 'dynamic-card-0-path-0', text: 'Pick' },
          { id: 'dynamic-card-0-path-1', text: 'Skip' },
        ],
      },
      {
        id: 'tpl-1',
        title: '<Two>',
        imageUrl: 'https://i.test/2.png',
        description: 'Same for all',
        paths: [
          { id: 'dynamic-card-1-path-0', text: 'Pick' },
          { id: 'dynamic-card-1-path-1', text: 'Skip' },
        ],
      },
    ])
    expect(texts(await listed.answer('dynamic-card-1-path-0'))).toEqual(['Picked https://i.test/2.png'])
  })
})
