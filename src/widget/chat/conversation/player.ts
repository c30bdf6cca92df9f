import { type ChatMessage, type ClientAction, MESSAGE_TYPES } from '../../../protocol/chat'
import { messageText } from '../../content/plain-text'
import type { Sleep } from '../../transport/index'
import type { ActionOutcome } from '../actions/runners'
import { type Emit, widgetWarning } from '../events/events'
import type { StepItem } from '../state/sequence'
import { type TypingSettings, typingDuration } from './typing'

export interface PlayerContext {
  signal: AbortSignal
  sleep: Sleep
  emit: Emit
  typing: TypingSettings
  /** True until the conversation's first host bubble is on screen. */
  isFirstBubble(): boolean
  setTyping(on: boolean): void
  show(message: ChatMessage): void
  runAction(action: ClientAction): Promise<ActionOutcome>
}

const KNOWN_MESSAGES: ReadonlySet<string> = new Set(MESSAGE_TYPES)

/**
 * Plays one step's bubbles and actions in order, with the typing indicator and pauses the flow's
 * typing emulation asks for. Stops early at an action that halts the page, expects a dedicated
 * reply (the service stops its walk there too) or brings the next step, returning that outcome.
 */
export async function playStep(items: readonly StepItem[], context: PlayerContext): Promise<ActionOutcome> {
  const { typing, signal, sleep } = context
  let shown = 0
  for (const item of items) {
    if (item.kind === 'action') {
      const outcome = await context.runAction(item.action)
      if (outcome.halt || outcome.reply !== undefined || outcome.step) return outcome
      continue
    }
    const { message } = item
    if (!KNOWN_MESSAGES.has(message.type)) {
      context.emit('flowchat:log', widgetWarning('unknown-message', `Unknown message type "${message.type}" was skipped`))
      continue
    }
    if (shown > 0 && typing.enabled && typing.delayBetweenBubbles > 0) {
      await sleep(typing.delayBetweenBubbles * 1000, signal)
    }
    const quiet = context.isFirstBubble() && typing.isDisabledOnFirstMessage
    const duration = quiet ? 0 : typingDuration(messageText(message), typing)
    if (duration > 0) {
      context.setTyping(true)
      try {
        await sleep(duration, signal)
      } finally {
        context.setTyping(false)
      }
    }
    context.show(message)
    shown++
  }
  return {}
}
