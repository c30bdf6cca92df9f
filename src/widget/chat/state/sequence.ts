import type { ChatMessage, ClientAction } from '../../../protocol/index'

export type StepItem = { kind: 'message'; message: ChatMessage } | { kind: 'action'; action: ClientAction }

/**
 * The order in which one chat step plays: each client action right after the bubble its
 * `lastBubbleBlockId` names, in the order the service sent them. Actions with no
 * `lastBubbleBlockId`, or one naming no bubble of this step (already on screen), run before the
 * first bubble.
 */
export function orderStep(messages: readonly ChatMessage[] = [], actions: readonly ClientAction[] = []): StepItem[] {
  const ids = new Set(messages.map((message) => message.id))
  const run = (which: (anchor: string | undefined | null) => boolean): StepItem[] =>
    actions.filter((action) => which(action.lastBubbleBlockId)).map((action) => ({ kind: 'action', action }))
  const items = run((anchor) => !anchor || !ids.has(anchor))
  for (const message of messages) {
    items.push({ kind: 'message', message })
    // A repeated id (a loop in one step) takes its actions after its first occurrence only.
    if (message.id && ids.delete(message.id)) items.push(...run((anchor) => anchor === message.id))
  }
  return items
}
