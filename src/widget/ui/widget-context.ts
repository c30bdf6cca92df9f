import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import type { ReadonlySignal } from '@preact/signals'
import type { Conversation, Emit } from '../chat/index'
import type { ThemeLayout } from './theme/theme-vars'

export interface WidgetContextValue {
  conversation: Conversation
  emit: Emit
  layout: ReadonlySignal<ThemeLayout>
  /** Set when the visitor answers, so the next input takes focus; never steals it on load. */
  focusNext: { current: boolean }
}

export const WidgetContext = createContext<WidgetContextValue | null>(null)

export function useWidget(): WidgetContextValue {
  const value = useContext(WidgetContext)
  if (!value) throw new Error('flow-chat: component rendered outside its widget')
  return value
}
