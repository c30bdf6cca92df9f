import type { ChatMessage, ClientAction } from '../../protocol/index'

export type StepItem =
  | { kind: 'message'; message: ChatMessage }
  | { kind: 'action'; action: ClientAction }

/**
 * The order in which one chat step plays: each client action right after the bubble its
 * `lastBubbleBlockId` names, in the order the service sent them. Actions with no
 * `lastBubbleBlockId`, or one naming no bubble of this step (already on screen), run before the
 * first bubble.
 */
export function orderStep(
  messages: readonly ChatMessage[] = [],
  actions: readonly ClientAction[] = [],
): StepItem[] {
  const ids = new Set(messages.map((message) => message.id))
  const before: StepItem[] = []
  const after = new Map<string, StepItem[]>()
  for (const action of actions) {
    const anchor = action.lastBubbleBlockId
    if (anchor && ids.has(anchor)) {
      const list = after.get(anchor) ?? []
      list.push({ kind: 'action', action })
      after.set(anchor, list)
    } else {
      before.push({ kind: 'action', action })
    }
  }
  const items = before
  for (const message of messages) {
    items.push({ kind: 'message', message })
    const anchored = after.get(message.id)
    if (anchored) {
      items.push(...anchored)
      // A repeated id (a loop in one step) takes its actions after its first occurrence only.
      after.delete(message.id)
    }
  }
  return items
}
