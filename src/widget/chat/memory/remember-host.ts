import type { PublishedFlow } from '../../transport/index'
import type { Emit } from '../events/events'
import type { ConversationState } from '../state/conversation-state'
import type { Next, RestartReason } from '../state/stage'
import type { ConversationMemory } from './conversation-memory'

/** What this chunk needs of its conversation to go on from storage, or start over. */
export interface RememberHost {
  state: ConversationState
  emit: Emit
  memory: ConversationMemory | undefined
  /** A new session (startChat), with the published flow when in hand, for a result to keep. */
  begin(signal: AbortSignal, known?: { published?: PublishedFlow; resultId?: string; reason?: RestartReason }): Promise<Next>
  /** Stops what the conversation is doing (another tab went on: this one follows it). */
  stop(): void
}
