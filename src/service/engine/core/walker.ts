import { leave, type RunBlock, type WalkResult } from './continuation'
import type { BlockLocation, Position } from './flow-index'
import { afterPathEnd } from './frames'
import type { Step } from './step'

/** Blocks one request may run before the engine assumes an endless loop and stops. */
export const MAX_BLOCKS_PER_STEP = 1000

const ENDED: WalkResult = { awaiting: null }

/**
 * Runs blocks from `position` with `runBlock` until an input or a client reply is awaited, or the
 * flow ends. When a path ends, a queued position or the caller of a linked flow takes over.
 */
export async function walk(step: Step, position: Position | undefined, runBlock: RunBlock): Promise<WalkResult> {
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
