import { afterAll, describe, expect, it } from 'vitest'
import { closeSandbox } from '../../../../../src/service/engine/sandbox/sandbox'
import { EngineError } from '../../../../../src/service/engine/index'
import { buildFlow, Conversation, edge, input, text, texts, varId } from '../../support/flow-builder'

afterAll(closeSandbox)

const paymentFlow = () =>
  buildFlow({
    variables: ['Email', 'Paid'],
    groups: [
      {
        id: 'g',
        blocks: [
          text('ask', 'Pay now'),
          input(
            'pay',
            'payment input',
            { credentialsId: 'stripe', amount: '10', additionalInformation: { email: '{{Email}}' }, variableId: varId('Paid') },
            { outgoingEdgeId: 'e1' },
          ),
          text('never', 'Not next'),
        ],
      },
      { id: 'after', blocks: [text('thanks', 'Thanks anyway')] },
    ],
    edges: [edge('e1', 'pay', 'after')],
  })

describe('payment input', () => {
  it('is sent without its options or runtime options, and logged as not available', async () => {
    const chat = new Conversation(paymentFlow())
    const started = await chat.start({ prefilledVariables: { Email: 'ada@example.com' } })
    expect(started.response.input).toEqual({ id: 'pay', type: 'payment input', options: {}, outgoingEdgeId: 'e1' })
    expect(JSON.stringify(started.response)).not.toContain('ada@example.com')
    expect(started.response.logs).toEqual([
      expect.objectContaining({
        status: 'warning',
        description: expect.stringMatching(/Payment is not available/),
        details: { blockId: 'pay' },
      }),
    ])
  })

  it("goes on along the block's edge with no message, its variable unset and nothing recorded", async () => {
    const chat = new Conversation(paymentFlow())
    await chat.start()
    const state = JSON.parse(JSON.stringify(chat.outcome.state))
    const after = await chat.engine.continue(chat.flow, state, undefined, chat.context)
    expect(texts(after)).toEqual(['Thanks anyway'])
    expect(after.answers).toEqual([])
    expect(after.state.variables[varId('Paid')]).toBeUndefined()
  })

  it('takes no paid answer from the client either: any text goes on the same way', async () => {
    const chat = new Conversation(paymentFlow())
    await chat.start()
    const after = await chat.answer('Success')
    expect(texts(after)).toEqual(['Thanks anyway'])
    expect(after.state.variables[varId('Paid')]).toBeUndefined()
    expect(after.answers).toEqual([])
  })

  it('leaves other inputs needing a message', async () => {
    const chat = new Conversation(buildFlow({ groups: [{ id: 'g', blocks: [input('q', 'text input')] }] }))
    await chat.start()
    await expect(chat.engine.continue(chat.flow, chat.outcome.state, undefined, chat.context)).rejects.toThrow(EngineError)
  })
})
