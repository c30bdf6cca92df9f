import type { ChatInput } from '../../../protocol/index'
import { isAiBlockType } from '../blocks/ai/ai-options'
import { runAiBlock } from '../blocks/ai/ai-block'
import { isBubbleType, isInputType } from './block-kinds'
import { buildBubbleMessage } from '../blocks/bubbles/bubbles'
import { runRedirect, runScript, runWait } from '../blocks/logic/client-actions'
import { firstMatchingItem } from '../blocks/logic/conditions'
import { type Continuation, follow, leave } from './continuation'
import { runJump, runReturn } from '../blocks/logic/detours'
import { runEmailBlock } from '../blocks/email/email-block'
import type { BlockLocation, Position } from './flow-index'
import { runHttpRequestBlock } from '../blocks/http-request/http-request-block'
import { runWaitForWebhook } from '../blocks/http-request/wait-for-webhook'
import { buildInputView } from '../blocks/inputs/input-view'
import { afterPathEnd, runTypebotLink } from '../blocks/logic/linked-flows'
import { runSetVariable } from '../blocks/logic/set-variable'
import type { Step } from './step'
import type { Awaiting } from './types'

/** Blocks one request may run before the engine assumes an endless loop and stops. */
export const MAX_BLOCKS_PER_STEP = 1000

export interface WalkResult {
  /** What the session now waits for; null when the flow ended. */
  awaiting: Awaiting | null
  input?: ChatInput
}

const ENDED: WalkResult = { awaiting: null }

/**
 * Runs blocks from `position` until an input or a client reply is awaited, or the flow ends.
 * When a path ends, a queued position or the caller of a linked flow takes over.
 */
export async function walk(step: Step, position: Position | undefined): Promise<WalkResult> {
  let current = position
  for (;;) {
    current ??= afterPathEnd(step)
    if (!current) return ENDED
    const group = step.index.groups.get(current.groupId)
    const block = group?.blocks[current.blockIndex]
    if (!group || !block) return ENDED
    if (step.executedBlocks >= MAX_BLOCKS_PER_STEP) {
      step.log('error', `The flow ran ${MAX_BLOCKS_PER_STEP} blocks without waiting for an answer and was stopped`, {
        blockId: block.id,
      })
      return ENDED
    }
    step.executedBlocks++
    const location: BlockLocation = { group, index: current.blockIndex, block }
    const continuation = await runBlock(location, step)
    switch (continuation.kind) {
      case 'wait':
        return { awaiting: continuation.awaiting, ...(continuation.input ? { input: continuation.input } : {}) }
      case 'jump':
        current = continuation.position
        break
      case 'end':
        current = undefined
        break
      case 'follow':
        current = leave(location, continuation.edgeId, step)
    }
  }
}

async function runBlock(location: BlockLocation, step: Step): Promise<Continuation> {
  const { block, group } = location
  if (isBubbleType(block.type)) {
    const message = buildBubbleMessage(block, step.substitute)
    if (message) step.addMessage(message)
    return follow(block.outgoingEdgeId)
  }
  if (isInputType(block.type)) {
    const input = buildInputView(block, step)
    if (input.items && input.items.length === 0) {
      // Nothing to pick would leave the visitor stuck: the flow goes on as if it were skipped.
      step.skip(block, 'warning', 'Choice skipped: it has no items to show')
      return follow(block.outgoingEdgeId)
    }
    return { kind: 'wait', awaiting: { kind: 'input', groupId: group.id, blockId: block.id }, input }
  }
  if (isAiBlockType(block.type)) return runAiBlock(location, step)
  switch (block.type) {
    case 'Set variable':
      return runSetVariable(location, step)
    case 'Condition': {
      const matched = firstMatchingItem(block.items ?? [], step.conditionScope)
      if (!matched) return follow(block.outgoingEdgeId)
      // A matching branch without a link ends that path, as builders run it.
      return matched.outgoingEdgeId ? follow(matched.outgoingEdgeId) : { kind: 'end' }
    }
    case 'Redirect':
      return runRedirect(block, step)
    case 'Wait':
      return runWait(block, step)
    case 'Script':
      return runScript(block, step)
    case 'Jump':
      return runJump(location, step)
    case 'Return':
      return runReturn(location, step)
    case 'Typebot link':
      return runTypebotLink(location, step)
    case 'Webhook':
      return runHttpRequestBlock(location, step)
    case 'webhook':
      return runWaitForWebhook(location, step)
    case 'Email':
      return runEmailBlock(block, step)
    default:
      // Blocks the service cannot run yet (files, payments, cards) or does not know: named
      // in the logs, and the walk goes on along the block's edge.
      step.skip(block, 'info', `Block type ${block.type} is not supported`)
      return follow(block.outgoingEdgeId)
  }
}
