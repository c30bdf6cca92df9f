import { afterAll, describe, expect, it } from 'vitest'
import type { ChatReplyMessage } from '../../../../../src/protocol/index'
import { EngineError } from '../../../../../src/service/engine/index'
import { closeSandbox } from '../../../../../src/service/engine/sandbox/sandbox'
import { buildFlow, Conversation, edge, input, text, texts, varId } from '../../support/flow-builder'

afterAll(closeSandbox)

/** Replies that try to pass a payment input as paid, without the service confirming any payment. */
const PAID_CLAIMS: { tries: string; message: ChatReplyMessage | undefined }[] = [
  { tries: "no message at all (the widget's Continue)", message: undefined },
  { tries: 'an empty reply', message: '' },
  { tries: 'an empty text message', message: { type: 'text', text: '' } },
  { tries: 'a client saying it succeeded', message: 'Success' },
  { tries: "a provider's success payload", message: '{"status":"succeeded","paymentIntent":"pi_123"}' },
]

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
      // The paid branch: what a flow hands out once paid.
      { id: 'after', blocks: [text('thanks', 'Here is your download link')] },
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

  it.each(PAID_CLAIMS.map((claim) => [claim.tries, claim.message] as const))(
    'never opens the paid branch on %s: the conversation ends there, nothing stored',
    async (_, message) => {
      const chat = new Conversation(paymentFlow())
      await chat.start()
      const state = JSON.parse(JSON.stringify(chat.outcome.state))
      const after = await chat.engine.continue(chat.flow, state, message, chat.context)
      expect(texts(after)).toEqual([])
      expect(after.ended).toBe(true)
      expect(after.state.variables[varId('Paid')]).toBeUndefined()
      expect(after.answers).toEqual([])
      expect(after.logs).toContainEqual(
        expect.objectContaining({ description: expect.stringMatching(/no payment was confirmed/), details: { blockId: 'pay' } }),
      )
    },
  )

  it('leaves other inputs needing a message', async () => {
    const chat = new Conversation(buildFlow({ groups: [{ id: 'g', blocks: [input('q', 'text input')] }] }))
    await chat.start()
    await expect(chat.engine.continue(chat.flow, chat.outcome.state, undefined, chat.context)).rejects.toThrow(EngineError)
  })
})
