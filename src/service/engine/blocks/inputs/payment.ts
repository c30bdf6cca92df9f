import type { ChatInput } from '../../../../protocol/index'
import type { WalkResult } from '../../core/continuation'
import type { BlockLocation } from '../../core/flow-index'
import type { Step } from '../../core/step'

/**
 * A payment input (`payment input`). Taking a payment needs the provider's script from its own
 * servers, which this product neither loads nor can test, so the block is shown as "payment is
 * not available in this chat": the input goes out with none of its options (no amount, no
 * customer details, no credentials, no runtime options) and a log says why. The block's edge is
 * the branch a flow takes once paid (a download, a booking), and only the service's own
 * confirmation of a payment may open it: this service has none, so whatever the visitor sends
 * next (no message, "Success", anything) ends the conversation there. Nothing is recorded.
 */
export const PAYMENT_UNAVAILABLE = 'Payment is not available in this chat: the conversation ends at it'

export function paymentView(view: ChatInput, step: Step): ChatInput {
  // Not a skipped block (the visitor sees it, and goes on from it): the log names it by id.
  step.log('warning', PAYMENT_UNAVAILABLE, { blockId: view.id })
  return { id: view.id, type: view.type, options: {}, ...(view.outgoingEdgeId ? { outgoingEdgeId: view.outgoingEdgeId } : {}) }
}

export const isPayment = (location: BlockLocation) => location.block.type === 'payment input'

/** The visitor answered a payment input: the paid branch stays closed and the conversation ends. */
export function passPayment(step: Step, location: BlockLocation): WalkResult {
  step.log('info', 'The conversation ended at a payment input: no payment was confirmed, so its paid branch stays closed', {
    blockId: location.block.id,
  })
  return { awaiting: null }
}
