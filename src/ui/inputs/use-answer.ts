import type { RefObject } from 'preact'
import { useLayoutEffect } from 'preact/hooks'
import { useWidget } from '../widget-context'

/** Sends an answer and remembers that the visitor is interacting, so the next input gets focus. */
export function useAnswer(): (message: string) => void {
  const { conversation, focusNext } = useWidget()
  return (message) => {
    focusNext.current = true
    conversation.send(message)
  }
}

/**
 * Focuses the new input only while the visitor is answering: on first load focus stays wherever
 * the host page has it. `preventScroll` keeps the host page from jumping.
 */
export function useAutoFocus(ref: RefObject<HTMLElement | null>): void {
  const { focusNext } = useWidget()
  useLayoutEffect(() => {
    if (focusNext.current) ref.current?.focus({ preventScroll: true })
  }, [])
}

/** Enter that confirms an IME composition (Japanese, Chinese, …) must not send. */
export const isComposing = (event: KeyboardEvent, composing: boolean) =>
  composing || event.isComposing || event.keyCode === 229
