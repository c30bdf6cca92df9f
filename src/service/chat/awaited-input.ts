import type { Block, PublishedFlow } from '../../protocol/index'
import type { SessionState } from '../engine/core/types'
import type { ChatDeps } from './chat-deps'

/** The input block a session waits on (in the linked flow it is in, if any), or undefined. */
export async function awaitedInput(deps: Pick<ChatDeps, 'versions'>, state: SessionState, flow: PublishedFlow): Promise<Block | undefined> {
  const awaiting = state.awaiting
  if (awaiting?.kind !== 'input') return undefined
  const inLink = state.links?.at(-1)?.versionId
  const snapshot = inLink ? (await deps.versions.get(inLink))?.snapshot : flow
  return snapshot?.groups.find((group) => group.id === awaiting.groupId)?.blocks.find((block) => block.id === awaiting.blockId)
}
