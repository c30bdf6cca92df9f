import { defineFlowChat, type DefineOptions } from './define'
import { BUBBLE_TAG_NAME, POPUP_TAG_NAME, createLauncherElement } from './launcher-element'

/**
 * Registers `<flow-chat-bubble>` and `<flow-chat-popup>` (and `<flow-chat>`, which they contain).
 * Safe to call any number of times: the first definitions stay.
 */
export function defineFlowChatLaunchers(options: Omit<DefineOptions, 'tagName'> = {}): void {
  defineFlowChat(options)
  const registry = options.registry ?? customElements
  for (const [tagName, kind] of [[BUBBLE_TAG_NAME, 'bubble'], [POPUP_TAG_NAME, 'popup']] as const) {
    if (!registry.get(tagName)) registry.define(tagName, createLauncherElement(kind, options))
  }
}
