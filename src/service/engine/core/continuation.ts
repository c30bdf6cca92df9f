import type { ChatInput } from '../../../protocol/index'
import { type BlockLocation, edgeTarget, type Position } from './flow-index'
import type { Step } from './step'
import type { Awaiting } from './types'

/** What the walk does after a block ran. */
export type Continuation =
  /** Leave by this edge; without one, go on with the next block of the group. */
  | { kind: 'follow'; edgeId?: string }
  | { kind: 'jump'; position: Position }
  /** This path ends here, whatever follows the block. */
  | { kind: 'end' }
  /** Stop and wait for the visitor (an input) or the widget (a client reply). */
  | { kind: 'wait'; awaiting: Awaiting; input?: ChatInput }

/** Where a walk stopped: what the session now waits for (null when the flow ended), and the input to show. */
export interface WalkResult {
  awaiting: Awaiting | null
  input?: ChatInput
}

/** Runs one block and says what the walk does next (engine/blocks/run-block.ts). */
export type RunBlock = (location: BlockLocation, step: Step) => Continuation | Promise<Continuation>

export const follow = (edgeId: string | null | undefined): Continuation => (edgeId ? { kind: 'follow', edgeId } : { kind: 'follow' })

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
