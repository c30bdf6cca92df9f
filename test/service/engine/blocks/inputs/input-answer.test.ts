import { describe, expect, it } from 'vitest'
import type { Block } from '../../../../../src/protocol/index'
import { buildFlow, Conversation, text, texts, varId } from '../../support/flow-builder'

/** A flow asking one question, storing it in `Answer`, then echoing it. */
interface Question {
  type: string
  options?: Record<string, unknown>
  items?: Block['items']
}

function ask(question: Question) {
  const options = { variableId: varId('Answer'), ...(question.options ?? {}) }
  const block: Block = { ...question, id: 'q', options }
  return buildFlow({
    variables: ['Answer', 'Max'],
    groups: [{ id: 'g', blocks: [block, text('echo', 'Got {{Answer}}')] }],
  })
}

async function answer(block: Question, message: string, prefilledVariables?: Record<string, string>) {
  const conversation = new Conversation(ask(block))
  const first = await conversation.start({ prefilledVariables })
  return { first, outcome: await conversation.answer(message), conversation }
}

/**
 * `lastMessageNewFormat`: how the widget should show the visitor's bubble when not as typed;
 * `shown`: what the bubble shows, when neither the message nor that (the answer records it
 * beside the stored value when the two differ).
 */
async function expectAccepted(block: Question, message: string, stored: unknown, lastMessageNewFormat?: string, shown?: string) {
  const { outcome } = await answer(block, message)
  expect(outcome.state.variables[varId('Answer')]).toEqual(stored)
  const recorded = Array.isArray(stored) ? stored.join(', ') : String(stored)
  const display = shown ?? lastMessageNewFormat ?? recorded
  expect(outcome.answers).toEqual([
    { blockId: 'q', groupId: 'g', variableId: varId('Answer'), value: recorded, ...(display === recorded ? {} : { display }) },
  ])
  expect(outcome.response.lastMessageNewFormat).toBe(lastMessageNewFormat)
  expect(texts(outcome)).toEqual([`Got ${recorded}`])
  expect(outcome.ended).toBe(true)
}

async function expectRetry(block: Question, message: string, retryText: string) {
  const { first, outcome } = await answer(block, message)
  expect(outcome.answers).toEqual([])
  expect(outcome.ended).toBe(false)
  expect(outcome.state).toEqual(first.state)
  expect(outcome.response.messages).toEqual([
    { id: 'q-retry', type: 'text', content: { richText: [{ type: 'p', children: [{ text: retryText }] }], plainText: retryText } },
  ])
  expect(outcome.response.input).toEqual(first.response.input)
}

describe('text input', () => {
  it('accepts any non-empty text, trimmed', () => expectAccepted({ type: 'text input' }, 'Ada', 'Ada'))
  it('shows the trimmed form only when more than spaces changed', () => expectAccepted({ type: 'text input' }, '  Ada  ', 'Ada'))
  it('asks again for a blank answer', () => expectRetry({ type: 'text input' }, '   ', 'Please type an answer.'))
})

describe('number input', () => {
  it('accepts a number and normalises its writing', async () => {
    await expectAccepted({ type: 'number input' }, '42', '42')
    await expectAccepted({ type: 'number input' }, '042.50', '42.5', '42.5')
  })
  it('asks again for text', () => expectRetry({ type: 'number input' }, 'forty', 'Please enter a valid number.'))
  it('enforces min and max, also from variables', async () => {
    await expectRetry({ type: 'number input', options: { min: 1, max: '10' } }, '11', 'Please enter a number between 1 and 10.')
    const { outcome } = await answer({ type: 'number input', options: { max: '{{Max}}' } }, '6', { Max: '5' })
    expect(outcome.answers).toEqual([])
    expect(texts(outcome)).toEqual(['Please enter a number no greater than 5.'])
  })
})

describe('email input', () => {
  it('accepts an address', () => expectAccepted({ type: 'email input' }, 'ada@example.com', 'ada@example.com'))
  it('asks again with the default message', () =>
    expectRetry({ type: 'email input' }, 'ada@', "This email doesn't seem to be valid. Can you type it again?"))
  it('asks again with the flow’s own message, variables filled in', async () => {
    const { outcome } = await answer({ type: 'email input', options: { retryMessageContent: 'Hmm {{Max}}, try again' } }, 'nope', {
      Max: 'Ada',
    })
    expect(texts(outcome)).toEqual(['Hmm Ada, try again'])
  })
})

describe('url input', () => {
  it('accepts a full url as typed', () => expectAccepted({ type: 'url input' }, 'https://example.com/x', 'https://example.com/x'))
  it('completes a bare domain and says so', () =>
    expectAccepted({ type: 'url input' }, 'example.com', 'https://example.com', 'https://example.com'))
  it('asks again for something else', () =>
    expectRetry({ type: 'url input' }, 'not a site', "This URL doesn't seem to be valid. Can you type it again?"))
})

describe('phone number input', () => {
  it('accepts and normalises a number', () =>
    expectAccepted({ type: 'phone number input' }, '+33 6 12 34 56 78', '+33612345678', '+33612345678'))
  it('keeps a number already in its stored form', () => expectAccepted({ type: 'phone number input' }, '+33612345678', '+33612345678'))
  it('asks again for letters', () =>
    expectRetry({ type: 'phone number input' }, 'call me', "This phone number doesn't seem to be valid. Can you type it again?"))
})

describe('date input', () => {
  it('accepts an ISO date', () => expectAccepted({ type: 'date input' }, '2026-05-01', '2026-05-01'))
  it('accepts a range when the input is a range', () =>
    expectAccepted({ type: 'date input', options: { isRange: true } }, '2026-05-01 to 2026-05-03', '2026-05-01 to 2026-05-03'))
  it('asks again for an impossible date', () =>
    expectRetry({ type: 'date input' }, '2026-02-30', "This date doesn't seem to be valid. Please pick a date."))
})

describe('rating input', () => {
  it('accepts a rating from 0 to 10 by default', async () => {
    await expectAccepted({ type: 'rating input' }, '0', '0')
    await expectAccepted({ type: 'rating input' }, '10', '10')
  })
  it('asks again outside the range', () => expectRetry({ type: 'rating input' }, '11', 'Please pick a rating from 0 to 10.'))
  it('uses the block’s own range', () =>
    expectRetry({ type: 'rating input', options: { startsAt: 1, length: 5 } }, '0', 'Please pick a rating from 1 to 5.'))
})

describe('choice input', () => {
  const items = [
    { id: 'yes', content: 'Yes' },
    { id: 'no', content: 'No thanks', value: 'no' },
  ]
  const choice = { type: 'choice input', items }

  it('stores the item’s value ?? content and shows its label', async () => {
    await expectAccepted(choice, 'Yes', 'Yes')
    await expectAccepted(choice, 'no', 'no', 'No thanks')
    await expectAccepted(choice, 'YES', 'Yes', 'Yes')
  })

  it('leaves by the chosen item’s edge, else by the block’s', async () => {
    const flow = buildFlow({
      groups: [
        {
          id: 'g',
          blocks: [
            { id: 'q', type: 'choice input', items: [{ ...items[0]!, outgoingEdgeId: 'e-yes' }, items[1]!], outgoingEdgeId: 'e-default' },
          ],
        },
        { id: 'yes-g', blocks: [text('y', 'Chose yes')] },
        { id: 'default-g', blocks: [text('d', 'Default way')] },
      ],
      edges: [
        { id: 'e-yes', from: { blockId: 'q', itemId: 'yes' }, to: { groupId: 'yes-g' } },
        { id: 'e-default', from: { blockId: 'q' }, to: { groupId: 'default-g' } },
      ],
    })
    const viaItem = new Conversation(flow)
    await viaItem.start()
    expect(texts(await viaItem.answer('Yes'))).toEqual(['Chose yes'])
    const viaBlock = new Conversation(flow)
    await viaBlock.start()
    expect(texts(await viaBlock.answer('no'))).toEqual(['Default way'])
  })

  it('asks again for an option that does not exist', () => expectRetry(choice, 'Maybe', 'Please pick one of the options.'))

  it('multiple choice stores a list and records it joined', async () => {
    const multiple = { ...choice, options: { isMultipleChoice: true } }
    await expectAccepted(multiple, 'Yes, no', ['Yes', 'no'], 'Yes, No thanks')
    await expectRetry(multiple, 'Yes, Maybe', 'Please pick one or more of the options.')
  })

  it('refuses an option hidden by its display condition', async () => {
    const hidden = {
      type: 'choice input',
      items: [
        { id: 'a', content: 'Shown' },
        {
          id: 'b',
          content: 'Hidden',
          displayCondition: { isEnabled: true, condition: { comparisons: [{ variableId: varId('Max'), value: 'x' }] } },
        },
      ],
    }
    await expectRetry(hidden, 'Hidden', 'Please pick one of the options.')
  })
})

describe('picture choice input', () => {
  const pictures = {
    type: 'picture choice input',
    items: [
      { id: 'p1', title: 'Energy', pictureSrc: 'https://img.test/1.png' },
      { id: 'p2', title: 'Hydration', value: 'hydr', pictureSrc: 'https://img.test/2.png' },
    ],
  }
  it('stores value ?? title ?? id and accepts the title', async () => {
    await expectAccepted(pictures, 'Energy', 'Energy')
    await expectAccepted(pictures, 'hydr', 'hydr', 'Hydration')
    await expectAccepted(pictures, 'Hydration', 'hydr', undefined, 'Hydration')
  })
  it('asks again for an unknown picture', () => expectRetry(pictures, 'Sleep', 'Please pick one of the options.'))
})

describe('inputs without a variable', () => {
  it('record the answer without storing it', async () => {
    const flow = buildFlow({ groups: [{ id: 'g', blocks: [{ id: 'q', type: 'email input' }] }] })
    const conversation = new Conversation(flow)
    await conversation.start()
    const outcome = await conversation.answer('ada@example.com')
    expect(outcome.answers).toEqual([{ blockId: 'q', groupId: 'g', value: 'ada@example.com' }])
    expect(outcome.state.variables).toEqual({})
  })
})
