import type { ChatSettings } from '../../transport/index'

export interface TypingSettings {
  enabled: boolean
  /** Words per minute the "typing" host pretends to type at. */
  speed: number
  /** Longest typing indicator, in seconds. */
  maxDelay: number
  /** Pause between two bubbles of one step, in seconds. */
  delayBetweenBubbles: number
  /** No indicator before the very first bubble of a conversation. */
  isDisabledOnFirstMessage: boolean
}

/** What a hosted chat-flow product does when the flow does not say. */
export const DEFAULT_TYPING: TypingSettings = {
  enabled: true,
  speed: 400,
  maxDelay: 3,
  delayBetweenBubbles: 0,
  isDisabledOnFirstMessage: true,
}

const finite = (value: unknown, fallback: number, min = 0) =>
  typeof value === 'number' && Number.isFinite(value) ? Math.max(min, value) : fallback

export function typingSettings(settings: ChatSettings | null | undefined): TypingSettings {
  const t = settings?.typingEmulation
  const enabled = t?.enabled ?? settings?.general?.isTypingEmulationEnabled ?? DEFAULT_TYPING.enabled
  return {
    enabled,
    speed: finite(t?.speed, DEFAULT_TYPING.speed),
    maxDelay: finite(t?.maxDelay, DEFAULT_TYPING.maxDelay),
    delayBetweenBubbles: finite(t?.delayBetweenBubbles, DEFAULT_TYPING.delayBetweenBubbles),
    isDisabledOnFirstMessage: t?.isDisabledOnFirstMessage ?? DEFAULT_TYPING.isDisabledOnFirstMessage,
  }
}

/**
 * How long the indicator shows before a bubble, in ms: the time to type its words at `speed`
 * words per minute, capped by `maxDelay`. A bubble without words (an image) counts as one word.
 */
export function typingDuration(text: string, typing: TypingSettings): number {
  if (!typing.enabled || typing.speed <= 0) return 0
  const words = text.trim() ? text.trim().split(/\s+/).length : 1
  return Math.min((words / typing.speed) * 60_000, typing.maxDelay * 1000)
}
