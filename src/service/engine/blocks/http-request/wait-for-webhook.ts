import { randomUUID } from 'node:crypto'
import type { Continuation } from '../../core/continuation'
import type { BlockLocation } from '../../core/flow-index'
import type { Step } from '../../core/step'
import type { WebhookDelivery } from '../../core/types'
import { applyResponseMapping } from './response-mapping'

/**
 * `webhook` (wait for a webhook, integrations.md 1.7): the conversation pauses until an outside
 * system calls the result's webhook. The widget gets a `listenForWebhook` action naming this
 * wait, and learns that the flow went on by asking the service (see the protocol's
 * `LISTEN_FOR_WEBHOOK_PATH`); nothing is typed meanwhile.
 */
export function runWaitForWebhook(location: BlockLocation, step: Step): Continuation {
  const waitId = randomUUID()
  step.addAction({ type: 'listenForWebhook', listenForWebhook: { waitId }, expectsDedicatedReply: true })
  return { kind: 'wait', awaiting: { kind: 'webhook', groupId: location.group.id, blockId: location.block.id, waitId } }
}

/** The webhook was called: its body is `data` for the block's mapping, as for an HTTP request. */
export async function acceptWebhook(step: Step, location: BlockLocation, delivery: WebhookDelivery): Promise<void> {
  const response = { statusCode: delivery.statusCode, data: delivery.data }
  await applyResponseMapping(step, location.block.options, response, location.block.id)
  const ok = response.statusCode < 400
  step.log(ok ? 'success' : 'error', ok ? 'Webhook executed successfully!' : 'Webhook returned error', {
    blockId: location.block.id,
    statusCode: response.statusCode,
  })
}
