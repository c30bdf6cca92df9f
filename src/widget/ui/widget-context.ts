import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import type { Conversation, Emit } from '../chat/index'

export interface WidgetContextValue {
  conversation: Conversation
  emit: Emit
  /**
   * Puts focus on the transcript, without scrolling the page: where it waits while the control the
   * visitor used (an input that was answered, a Retry button) goes away and the next one comes.
   */
  focusTranscript(): void
  /** Whether focus is somewhere in this chat: only then may a new input take it. */
  hasFocus(): boolean
}

export const WidgetContext = createContext<WidgetContextValue | null>(null)

export function useWidget(): WidgetContextValue {
  const value = useContext(WidgetContext)
  if (!value) throw new Error('flow-chat: component rendered outside its widget')
  return value
}
