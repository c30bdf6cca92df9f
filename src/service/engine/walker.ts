import type { ChatInput } from '../../protocol/index'
import { isBubbleType, isInputType } from './block-kinds'
import { buildBubbleMessage } from './bubbles'
import { runRedirect, runScript, runWait } from './client-actions'
import { firstMatchingItem } from './conditions'
import { type Continuation, follow } from './continuation'
import { asFields, readString } from './field-readers'
import { type BlockLocation, edgeTarget, groupTarget, type Position } from './flow-index'
import { buildInputView } from './input-view'
import { runSetVariable } from './set-variable'
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

/** Runs blocks from `position` until an input or a client reply is awaited, or the flow ends. */
export async function walk(step: Step, position: Position | undefined): Promise<WalkResult> {
  let current = position
  while (current) {
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
        return ENDED
      case 'follow':
        current = leave(location, continuation.edgeId, step)
    }
  }
  return ENDED
}

/** Where the walk goes after a block: along the edge when there is one, else to the next block. */
export function leave(location: BlockLocation, edgeId: string | undefined, step: Step): Position | undefined {
  if (edgeId) {
    const target = edgeTarget(step.index, edgeId)
    if (!target) step.log('warning', 'A link of the flow leads nowhere; the conversation ends here', { blockId: location.block.id })
    return target
  }
  const nextIndex = location.index + 1
  return nextIndex < location.group.blocks.length ? { groupId: location.group.id, blockIndex: nextIndex } : undefined
}

async function runBlock(location: BlockLocation, step: Step): Promise<Continuation> {
  const { block, group } = location
  if (isBubbleType(block.type)) {
    const message = buildBubbleMessage(block, step.substitute)
    if (message) step.addMessage(message)
    return follow(block.outgoingEdgeId)
  }
  if (isInputType(block.type)) {
    return {
      kind: 'wait',
      awaiting: { kind: 'input', groupId: group.id, blockId: block.id },
      input: buildInputView(block, step),
    }
  }
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
    default:
      step.log('info', `Block type ${block.type} is not supported`, { blockId: block.id })
      return follow(block.outgoingEdgeId)
  }
}

function runJump(location: BlockLocation, step: Step): Continuation {
  const options = asFields(location.block.options)
  const groupId = readString(options, 'groupId')
  const target = groupId ? groupTarget(step.index, groupId, readString(options, 'blockId')) : undefined
  if (!target) {
    step.log('warning', 'Jump skipped: its target group does not exist', { blockId: location.block.id })
    return follow(location.block.outgoingEdgeId)
  }
  return { kind: 'jump', position: target }
}
