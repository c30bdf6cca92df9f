import { BUBBLE_TAG_NAME, type FlowChatBubbleElement } from '../element/bubble-element'
import { DEFAULT_TAG_NAME } from '../element/define'
import { defineFlowChatLaunchers } from '../element/define-launchers'
import type { FlowChatElement } from '../element/flow-chat-element'
import { setChatInput, submitChatInput } from '../element/inner-chat'
import { POPUP_TAG_NAME, type FlowChatPopupElement } from '../element/popup-element'
import { applyOptions, type BubbleEmbedOptions, type PopupEmbedOptions, type StandardEmbedOptions } from './options'

type Variables = Record<string, string | number | boolean>

/** Commands for one embedded chat; they never reach another instance on the page. */
export interface FlowChatHandle<E extends HTMLElement = HTMLElement> {
  readonly element: E
  /** Opens the bubble window or popup (an inline chat is always open: nothing happens). */
  open(): void
  close(): void
  toggle(): void
  /** Forgets the remembered conversation and starts a new one. */
  reset(): void
  /** Starts the conversation again: a flow that remembers users resumes where the visitor was. */
  reload(): void
  /** Merged into the variables sent when the next conversation starts (use before open, or reset). */
  setPrefilledVariables(variables: Variables): void
  /** Types into the chat's waiting text field; false when none is waiting (or not opened yet). */
  setInputValue(value: string): boolean
  /** Sends the waiting answer, as the send button does; resolves false when there is nothing to send. */
  submitInput(): Promise<boolean>
  /** Removes the chat from the page, ending its requests and timers. */
  unmount(): void
}

export interface BubbleHandle extends FlowChatHandle<FlowChatBubbleElement> {
  showPreviewMessage(text?: string): void
  hidePreviewMessage(): void
}

function requireBrowser(options: { flow?: unknown } | undefined): void {
  if (typeof document === 'undefined' || typeof customElements === 'undefined') {
    throw new Error('FlowChat: embedding needs a browser (no document here); call it on the client')
  }
  if (!options || typeof options.flow !== 'string' || !options.flow.trim()) {
    throw new TypeError('FlowChat: the `flow` option (a flow id or public id) is required')
  }
}

type Controllable = HTMLElement & { prefilledVariables: Variables | undefined; readonly chat: FlowChatElement | null; reset(): void; reload(): void }

function handleFor<E extends Controllable>(element: E, commands: Pick<FlowChatHandle, 'open' | 'close' | 'toggle'>): FlowChatHandle<E> {
  return {
    element,
    ...commands,
    reset: () => element.reset(),
    reload: () => element.reload(),
    setPrefilledVariables: (variables) => {
      element.prefilledVariables = { ...element.prefilledVariables, ...variables }
    },
    setInputValue: (value) => setChatInput(element.chat, value),
    submitInput: () => submitChatInput(element.chat),
    unmount: () => element.remove(),
  }
}

/** An inline `<flow-chat>` in `container` (default: the end of `document.body`). */
export function initStandard(options: StandardEmbedOptions): FlowChatHandle<FlowChatElement> {
  requireBrowser(options)
  defineFlowChatLaunchers()
  const container = typeof options.container === 'string' ? document.querySelector(options.container) : options.container ?? document.body
  if (!container) throw new Error(`FlowChat: no element matches the container "${String(options.container)}"`)
  const element = document.createElement(DEFAULT_TAG_NAME) as FlowChatElement
  applyOptions(element, options)
  element.prefilledVariables = options.prefilledVariables
  container.append(element)
  const nothing = () => {}
  return {
    element,
    open: nothing,
    close: nothing,
    toggle: nothing,
    reset: () => element.restart(),
    reload: () => element.reload(),
    setPrefilledVariables: (variables) => {
      element.prefilledVariables = { ...element.prefilledVariables, ...variables }
    },
    setInputValue: (value) => setChatInput(element, value),
    submitInput: () => submitChatInput(element),
    unmount: () => element.remove(),
  }
}

/** A floating launcher at the corner of the page that opens the chat in a window. */
export function initBubble(options: BubbleEmbedOptions): BubbleHandle {
  requireBrowser(options)
  defineFlowChatLaunchers()
  const element = document.createElement(BUBBLE_TAG_NAME) as FlowChatBubbleElement
  applyOptions(element, options)
  element.prefilledVariables = options.prefilledVariables
  document.body.append(element)
  return {
    ...handleFor(element, { open: () => element.open(), close: () => element.close(), toggle: () => element.toggle() }),
    showPreviewMessage: (text) => element.showPreviewMessage(text),
    hidePreviewMessage: () => element.hidePreviewMessage(),
  }
}

/** The chat in a modal dialog, opened by the handle, `autoShowDelay` or `defaultOpen`. */
export function initPopup(options: PopupEmbedOptions): FlowChatHandle<FlowChatPopupElement> {
  requireBrowser(options)
  defineFlowChatLaunchers()
  const element = document.createElement(POPUP_TAG_NAME) as FlowChatPopupElement
  applyOptions(element, options)
  element.prefilledVariables = options.prefilledVariables
  document.body.append(element)
  return handleFor(element, { open: () => element.open(), close: () => element.close(), toggle: () => element.toggle() })
}
