import { CHAT_PROPERTIES } from '../element/chat-properties'
import { DEFAULT_TAG_NAME } from '../element/define'
import { defineFlowChatLaunchers } from '../element/define-launchers'
import type { FlowChatElement } from '../element/flow-chat-element'
import type { LauncherClass, LauncherKind } from '../element/launcher-behaviour'
import { type FlowChatBubbleElement, type FlowChatPopupElement, launcherCommands, launcherTag } from '../element/launcher-element'
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
 * The chat of `kind` (none: an inline chat) with `options`, appended to `container` (an element
 * or a selector; default the end of `document.body`), and its handle: each command (a launcher's,
 * and the chat's own) calls the element, which calls its conversation; one the element has not
 * (an inline chat has no window to open) does nothing. A bubble's or popup's options are applied
 * by the launchers chunk, which knows them.
 */
function embed<E extends Embedded, H extends FlowChatHandle<E>>(
  kind: LauncherKind | undefined,
  options: { flow?: unknown },
  container?: Element | string,
): H {
  if (typeof document === 'undefined' || typeof customElements === 'undefined') {
    throw new Error('FlowChat: embedding needs a browser (no document here); call it on the client')
  }
  if (!options || typeof options.flow !== 'string' || !options.flow.trim()) {
    throw new TypeError('FlowChat: the `flow` option (a flow id or public id) is required')
  }
  const parent = typeof container === 'string' ? document.querySelector(container) : (container ?? document.body)
  if (!parent) throw new Error(`FlowChat: no element matches the container "${container}"`)
  defineFlowChatLaunchers()
  const element = document.createElement(kind ? launcherTag(kind) : DEFAULT_TAG_NAME) as E
  if (!kind) applyOptions(element, CHAT_PROPERTIES, options)
  else {
    // Set now, so that setPrefilledVariables() merges into it before the chunk is here (it wins over the options).
    element.prefilledVariables = (options as { prefilledVariables?: PrefilledVariables }).prefilledVariables
    ;(element.constructor as unknown as LauncherClass).pendingOptions.set(element, options)
  }
  parent.append(element)
  const handle: Record<string, unknown> = {
    element,
    setPrefilledVariables: (variables: PrefilledVariables) => {
      element.prefilledVariables = { ...element.prefilledVariables, ...variables }
    },
    submitInput: async () => element.submitInput(),
    unmount: () => element.remove(),
  }
  for (const name of [...launcherCommands(kind), 'setInputValue', 'sendCommand'])
    handle[name] = (...args: unknown[]) => (element as unknown as Record<string, (...args: unknown[]) => unknown>)[name]?.(...args)
  return handle as H
}

/** An inline `<flow-chat>` in `container` (default: the end of `document.body`). */
export function initStandard(options: StandardEmbedOptions): FlowChatHandle<FlowChatElement> {
  return embed(undefined, options, options?.container)
}

/** A floating launcher at the corner of the page that opens the chat in a window. */
export function initBubble(options: BubbleEmbedOptions): BubbleHandle {
  return embed('bubble', options)
}

/** The chat in a modal dialog, opened by the handle, `autoShowDelay` or `defaultOpen`. */
export function initPopup(options: PopupEmbedOptions): FlowChatHandle<FlowChatPopupElement> {
  return embed('popup', options)
}
