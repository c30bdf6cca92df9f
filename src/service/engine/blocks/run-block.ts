import { HANDOFF_BLOCK_TYPE } from '../../../protocol/handoff'
import { type Continuation, follow } from '../core/continuation'
import type { BlockLocation } from '../core/flow-index'
import type { Step } from '../core/step'
import { runAiBlock } from './ai/ai-block'
import { isAiBlockType } from './ai/ai-options'
import { isBubbleType, isInputType } from './block-kinds'
import { runBubble } from './bubbles/bubbles'
import { runEmailBlock } from './email/email-block'
import { runHandoff } from './handoff/handoff-block'
import { runHttpRequestBlock } from './http-request/http-request-block'
import { runWaitForWebhook } from './http-request/wait-for-webhook'
import { runInput } from './inputs/input-view'
import { runRedirect, runScript, runWait } from './logic/client-actions'
import { runCondition } from './logic/conditions'
import { runJump, runReturn } from './logic/detours'
import { runTypebotLink } from './logic/linked-flows'
import { runSetVariable } from './logic/set-variable'
import { QR_CODE_BLOCK_TYPE, runQrCode } from './qr-code'

/**
 * Runs one block, by its type, and says where the walk goes next. The walker (engine/core) is
 * handed this function and knows no block itself.
 */
export function runBlock(location: BlockLocation, step: Step): Continuation | Promise<Continuation> {
  const { block } = location
  if (isBubbleType(block.type)) return runBubble(block, step)
  if (isInputType(block.type)) return runInput(location, step)
  if (isAiBlockType(block.type)) return runAiBlock(location, step)
  switch (block.type) {
    case 'Set variable':
      return runSetVariable(location, step)
    case 'Condition':
      return runCondition(block, step)
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
    case QR_CODE_BLOCK_TYPE:
      return runQrCode(block, step)
    case HANDOFF_BLOCK_TYPE:
      return runHandoff(location, step)
    default:
      // Blocks the service cannot run yet (files) or does not know: named
      // in the logs, and the walk goes on along the block's edge.
      step.skip(block, 'info', `Block type ${block.type} is not supported`)
      return follow(block.outgoingEdgeId)
  }
}
