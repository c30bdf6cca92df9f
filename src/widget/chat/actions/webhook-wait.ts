import { RETRY_POLICY } from '../../../protocol/time-limits'
import { backoffDelay, TransportError } from '../../transport/index'
import { listenForWebhook as longPoll } from '../../transport/long-poll'
import { describeFailure } from '../events/failures'
import { actionPayload } from './action-payload'
import type { ActionRunner } from './runners'

/**
 * A wait-for-webhook block: long-polls the service until the outside system has called the
 * result's webhook, then hands back the step the flow produced (played like a continueChat
 * answer). A lost connection or a busy service is retried with backoff for as long as the chat is
 * open (reported to the page once per outage); the wait stops when the chat is removed, reset, or
 * a command moves the conversation on. A reload of a remembered conversation plays the step again
 * and so asks again: the service keeps the `continued` answer for that `waitId`.
 */
export const listenForWebhook: ActionRunner = async (action, { client, sessionId, emit, signal, sleep }) => {
  const waitId = actionPayload(action, 'listenForWebhook')?.waitId
  if (!waitId) throw new TransportError('invalid-response', 'The flow service asked to wait for a webhook without naming the wait')
  let failures = 0
  for (;;) {
    try {
      const answer = await longPoll(client.chat, sessionId, waitId, signal)
      failures = 0
      if (answer.status === 'continued' && answer.step) return { step: answer.step }
    } catch (error) {
      if (signal.aborted || !(error instanceof TransportError) || !error.retryable) throw error
      if (failures === 0) {
        const { code, message } = describeFailure(error).detail
        emit('flowchat:log', {
          status: 'warning',
          description: `Waiting for the flow to go on: ${message} Trying again.`,
          details: { reason: code },
          source: 'widget',
          code: 'webhook-wait-interrupted',
        })
      }
      await sleep(backoffDelay(failures++, RETRY_POLICY, error.retryAfterMs), signal)
    }
  }
}
