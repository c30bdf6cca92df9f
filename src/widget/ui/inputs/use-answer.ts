import type { RefObject } from 'preact'
import { useLayoutEffect } from 'preact/hooks'
import type { Conversation } from '../../chat/index'
import { useWidget } from '../widget-context'

/** Per conversation: the input on screen and the last answer sent to it (see `retryDraft`). */
const shownInput = new WeakMap<Conversation, string>()
const lastAnswer = new WeakMap<Conversation, { inputId: string; message: string }>()

/** Records which input the visitor is looking at, so an answer can be tied to it. */
export function rememberShownInput(conversation: Conversation, inputId: string): void {
  shownInput.set(conversation, inputId)
}

/**
 * The service rejects an invalid answer by sending the same input again (with a retry message).
 * The visitor then gets the rejected answer back to correct rather than an empty field.
 */
export function retryDraft(conversation: Conversation, inputId: string): string | undefined {
  const last = lastAnswer.get(conversation)
  return last && last.inputId === inputId && shownInput.get(conversation) === inputId ? last.message : undefined
}

/** Sends an answer and remembers that the visitor is interacting, so the next input gets focus. */
export function useAnswer(): (message: string, label?: string) => void {
  const { conversation, focusNext } = useWidget()
  return (message, label) => {
    focusNext.current = true
    const inputId = shownInput.get(conversation)
    if (inputId !== undefined) lastAnswer.set(conversation, { inputId, message })
    conversation.send(message, label)
  }
}

/**
 * Focuses the new input only while the visitor is answering: on first load focus stays wherever
 * the host page has it. `preventScroll` keeps the host page from jumping. An input that cannot
 * take focus yet (hidden behind an image that is still loading) takes it once it shows.
 */
export function useAutoFocus(ref: RefObject<HTMLElement | null>): void {
  const { focusNext } = useWidget()
  useLayoutEffect(() => {
    const element = ref.current
    if (!focusNext.current || !element) return
    const focus = () => element.focus({ preventScroll: true })
    focus()
    const root = element.getRootNode() as Document | ShadowRoot
    if (root.activeElement === element || typeof ResizeObserver === 'undefined') return
    // Showing gives the hidden element a size, which is the moment it can be focused.
    const observer = new ResizeObserver(() => {
      if (element.getClientRects().length === 0) return
      observer.disconnect()
      // Unless the visitor has since put focus somewhere on the page: never take it from there.
      const active = element.ownerDocument.activeElement
      if (!active || active === element.ownerDocument.body || (root instanceof ShadowRoot && active === root.host)) focus()
    })
    observer.observe(element)
    return () => observer.disconnect()
  }, [])
}

/** Enter that confirms an IME composition (Japanese, Chinese, …) must not send. */
export const isComposing = (event: KeyboardEvent, composing: boolean) =>
  composing || event.isComposing || event.keyCode === 229
