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
export function useAnswer(): (message: string) => void {
  const { conversation, focusNext } = useWidget()
  return (message) => {
    focusNext.current = true
    const inputId = shownInput.get(conversation)
    if (inputId !== undefined) lastAnswer.set(conversation, { inputId, message })
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
