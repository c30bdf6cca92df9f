import { afterAll, describe, expect, it } from 'vitest'
import { createEngine } from '../../../../../src/service/engine/index'
import { closeSandbox } from '../../../../../src/service/engine/sandbox/sandbox'
import { buildFlow, Conversation, edge, text, texts, varId } from '../../support/flow-builder'

afterAll(closeSandbox)

const flow = buildFlow({
  variables: ['Order', 'Status'],
  events: [{ id: 'cmd', type: 'command', outgoingEdgeId: 'to-help', options: { command: 'help' } }],
  groups: [
    {
      id: 'wait',
      blocks: [
        text('before', 'We are checking your payment…'),
        {
          id: 'hook',
          type: 'webhook',
          outgoingEdgeId: 'after',
          options: {
            responseVariableMapping: [
              { id: 'm', variableId: varId('Order'), bodyPath: 'data.order.id' },
              { id: 's', variableId: varId('Status'), bodyPath: 'statusCode' },
            ],
          },
        },
      ],
    },
    { id: 'done', blocks: [text('confirmed', 'Order {{Order}} confirmed ({{Status}})')] },
    { id: 'help', blocks: [text('help-text', 'Still waiting for the payment provider.'), { id: 'back', type: 'Return' }] },
  ],
  edges: [edge('after', 'hook', 'done'), { id: 'to-help', from: { eventId: 'cmd' }, to: { groupId: 'help' } }],
})

describe('wait for webhook', () => {
  it('pauses with a listenForWebhook action and goes on when the webhook is delivered', async () => {
    const conversation = new Conversation(flow)
    const start = await conversation.start()
    expect(texts(start)).toEqual(['We are checking your payment…'])
    const [action] = start.response.clientSideActions ?? []
    expect(action).toEqual({
      type: 'listenForWebhook',
      listenForWebhook: { waitId: expect.any(String) },
      expectsDedicatedReply: true,
      lastBubbleBlockId: 'before',
    })
    const waitId = (action!.listenForWebhook as { waitId: string }).waitId
    expect(start.state.awaiting).toEqual({ kind: 'webhook', groupId: 'wait', blockId: 'hook', waitId })

    const engine = createEngine()
    await expect(engine.deliverWebhook(flow, start.state, { waitId: 'another', statusCode: 200, data: {} })).rejects.toMatchObject({
      name: 'EngineError',
      code: 'not_waiting_for_webhook',
    })
    const delivered = await engine.deliverWebhook(flow, start.state, { waitId, statusCode: 200, data: { order: { id: 'A-17' } } })
    expect(texts(delivered)).toEqual(['Order A-17 confirmed (200)'])
    expect(delivered.response.logs).toEqual([
      { status: 'success', description: 'Webhook executed successfully!', details: { blockId: 'hook', statusCode: 200 } },
    ])
    expect(delivered.ended).toBe(true)
    await expect(engine.deliverWebhook(flow, delivered.state, { waitId, statusCode: 200, data: {} })).rejects.toMatchObject({
      name: 'EngineError',
      code: 'not_waiting_for_webhook',
    })
  })

  it('takes no typed answer while waiting, but runs commands and comes back to the wait', async () => {
    const conversation = new Conversation(flow)
    await conversation.start()
    await expect(conversation.answer('hello?')).rejects.toMatchObject({ name: 'EngineError', code: 'waiting_for_webhook' })
    const help = await conversation.answer({ type: 'command', command: 'help' })
    expect(texts(help)).toEqual(['Still waiting for the payment provider.'])
    expect(help.state.awaiting).toMatchObject({ kind: 'webhook', blockId: 'hook' })
    expect(help.response.clientSideActions?.[0]).toMatchObject({ type: 'listenForWebhook' })
  })
})
