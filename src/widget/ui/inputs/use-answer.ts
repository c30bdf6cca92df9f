import type { RefObject } from 'preact'
import { useLayoutEffect } from 'preact/hooks'
import type { Widget } from '../widget'

/**
 * Sends an answer. Focus first goes to the transcript: the answered input leaves at once, and
 * focus must stay in the chat until the next input takes it.
 */
export function useAnswer({
  conversation,
  focusTranscript,
}: Widget): (message: Parameters<Widget['conversation']['send']>[0], label?: string) => void {
  return (message, label) => {
    focusTranscript()
    conversation.send(message, label)
  }
}

/**
 * Focuses a new input while the visitor is in the chat (focus waits on the transcript after an
 * answer); on first load, or once the visitor went elsewhere on the page, focus stays where it is.
 * `preventScroll` keeps the host page from jumping. An input that cannot take focus yet (hidden
 * behind an image that is still loading) takes it once it shows. A text field's draft (an answer
 * to correct, a prefill) is selected: typing replaces it, the arrow keys edit it.
 */
export function useAutoFocus({ hasFocus }: Widget, ref: RefObject<HTMLElement | null>): void {
  useLayoutEffect(() => {
    const element = ref.current
    if (!element || !hasFocus()) return
    const focus = () => {
      element.focus({ preventScroll: true })
      if (element instanceof HTMLTextAreaElement || (element instanceof HTMLInputElement && element.type !== 'number')) element.select()
    }
    focus()
    const root = element.getRootNode() as Document | ShadowRoot
    if (root.activeElement === element || typeof ResizeObserver === 'undefined') return
    // Showing gives the hidden element a size, which is the moment it can be focused.
    const observer = new ResizeObserver(() => {
      if (element.getClientRects().length === 0) return
      observer.disconnect()
      if (hasFocus()) focus()
    })
    observer.observe(element)
    return () => observer.disconnect()
  }, [])
}

/** Enter that confirms an IME composition (Japanese, Chinese, …) must not send. */
export const isComposing = (event: KeyboardEvent, composing: boolean) => composing || event.isComposing || event.keyCode === 229
