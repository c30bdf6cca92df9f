import type { ChatInput } from '../../protocol/index'
import type { Position } from './flow-index'
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

export const follow = (edgeId: string | null | undefined): Continuation =>
  edgeId ? { kind: 'follow', edgeId } : { kind: 'follow' }
