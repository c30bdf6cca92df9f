import { DEFAULT_TAG_NAME } from '../element/define'
import { defineFlowChatLaunchers } from '../element/define-launchers'
import type { FlowChatElement } from '../element/flow-chat-element'
import { CHAT_PROPERTIES } from '../element/chat-properties'
import { BUBBLE_TAG_NAME, POPUP_TAG_NAME, pendingOptions, type FlowChatBubbleElement, type FlowChatPopupElement } from '../element/launcher-element'
import { applyOptions, type PrefilledVariables } from '../element/properties'
import type { BubbleEmbedOptions, PopupEmbedOptions, StandardEmbedOptions } from './options'

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
  setPrefilledVariables(variables: PrefilledVariables): void
  /** Types into the chat's waiting text field; false when none is waiting (or not opened yet). */
  setInputValue(value: string): boolean
  /** Sends the waiting answer, as the send button does; resolves false when there is nothing to send. */
  submitInput(): Promise<boolean>
  /**
   * Runs the flow's `command` event named `name` (after the answer in flight, if any). Resolves
   * once the service took it; rejects with a `FlowChatCommandError` (and a `flowchat:error`)
   * when the flow has no such command or the chat cannot take one (not opened yet, ended).
   */
  sendCommand(name: string): Promise<void>
  /** Removes the chat from the page, ending its requests and timers. */
  unmount(): void
}

export interface BubbleHandle extends FlowChatHandle<FlowChatBubbleElement> {
  showPreviewMessage(text?: string): void
  hidePreviewMessage(): void
}

type Embedded = FlowChatElement | FlowChatBubbleElement | FlowChatPopupElement

/**
 * The element for `tagName` with `options`, put on the page by `place`. A bubble's or popup's
 * options are applied by the launchers chunk, which knows them.
 */
function embed<E extends Embedded>(tagName: string, options: { flow?: unknown }, place: (element: E) => void): E {
  if (typeof document === 'undefined' || typeof customElements === 'undefined') {
    throw new Error('FlowChat: embedding needs a browser (no document here); call it on the client')
  }
  if (!options || typeof options.flow !== 'string' || !options.flow.trim()) {
    throw new TypeError('FlowChat: the `flow` option (a flow id or public id) is required')
  }
  defineFlowChatLaunchers()
  const element = document.createElement(tagName) as E
  if (tagName === DEFAULT_TAG_NAME) applyOptions(element, CHAT_PROPERTIES, options)
  else {
    // Set now, so that setPrefilledVariables() merges into it before the chunk is here.
    const { prefilledVariables, ...rest } = options as { prefilledVariables?: PrefilledVariables }
    element.prefilledVariables = prefilledVariables
    pendingOptions(element).set(element, rest)
  }
  place(element)
  return element
}

/** The handle of `element`: each command calls the element (which calls its conversation). */
function handleFor<E extends Embedded>(element: E, windowed: boolean): FlowChatHandle<E> {
  const nothing = () => {}
  const launcher = element as unknown as FlowChatBubbleElement
  return {
    element,
    open: windowed ? () => launcher.open() : nothing,
    close: windowed ? () => launcher.close() : nothing,
    toggle: windowed ? () => launcher.toggle() : nothing,
    reset: () => element.reset(),
    reload: () => element.reload(),
    setPrefilledVariables: (variables) => {
      element.prefilledVariables = { ...element.prefilledVariables, ...variables }
    },
    setInputValue: (value) => element.setInputValue(value),
    submitInput: async () => element.submitInput(),
    sendCommand: (name) => element.sendCommand(name),
    unmount: () => element.remove(),
  }
}

/** An inline `<flow-chat>` in `container` (default: the end of `document.body`). */
export function initStandard(options: StandardEmbedOptions): FlowChatHandle<FlowChatElement> {
  const element = embed<FlowChatElement>(DEFAULT_TAG_NAME, options, (chat) => {
    const container = typeof options.container === 'string' ? document.querySelector(options.container) : (options.container ?? document.body)
    if (!container) throw new Error(`FlowChat: no element matches the container "${String(options.container)}"`)
    container.append(chat)
  })
  return handleFor(element, false)
}

/** A floating launcher at the corner of the page that opens the chat in a window. */
export function initBubble(options: BubbleEmbedOptions): BubbleHandle {
  const element = embed<FlowChatBubbleElement>(BUBBLE_TAG_NAME, options, (bubble) => document.body.append(bubble))
  return {
    ...handleFor(element, true),
    showPreviewMessage: (text) => element.showPreviewMessage(text),
    hidePreviewMessage: () => element.hidePreviewMessage(),
  }
}

/** The chat in a modal dialog, opened by the handle, `autoShowDelay` or `defaultOpen`. */
export function initPopup(options: PopupEmbedOptions): FlowChatHandle<FlowChatPopupElement> {
  const element = embed<FlowChatPopupElement>(POPUP_TAG_NAME, options, (popup) => document.body.append(popup))
  return handleFor(element, true)
}
