import type { ChatInput } from '../../../../protocol/index'
import type { WalkResult } from '../../core/continuation'
import type { BlockLocation } from '../../core/flow-index'
import type { Step } from '../../core/step'

/**
 * A payment input (`payment input`). Taking a payment needs the provider's script from its own
 * servers, which this product neither loads nor can test, so the block is shown as "payment is
 * not available in this chat": the input goes out with none of its options (no amount, no
 * customer details, no credentials, no runtime options), a log says why, and whatever the
 * visitor sends next, or no message at all, goes on along the block's edge with its variable
 * left as it was. Nothing is recorded as paid.
 */
export const PAYMENT_UNAVAILABLE = 'Payment is not available in this chat: the flow goes on without it'

export function paymentView(view: ChatInput, step: Step): ChatInput {
  // Not a skipped block (the visitor sees it, and goes on from it): the log names it by id.
  step.log('warning', PAYMENT_UNAVAILABLE, { blockId: view.id })
  return { id: view.id, type: view.type, options: {}, ...(view.outgoingEdgeId ? { outgoingEdgeId: view.outgoingEdgeId } : {}) }
}

export const isPayment = (location: BlockLocation) => location.block.type === 'payment input'

/** The visitor went on past a payment input: its edge, nothing stored. */
export function passPayment(step: Step, location: BlockLocation, walkOn: (edgeId?: string) => Promise<WalkResult>): Promise<WalkResult> {
  step.log('info', 'The visitor went on without paying: payment is not available in this chat', { blockId: location.block.id })
  return walkOn(location.block.outgoingEdgeId ?? undefined)
}
