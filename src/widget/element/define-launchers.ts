import { BUBBLE_TAG_NAME, createFlowChatBubbleElement } from './bubble-element'
import { defineFlowChat, type DefineOptions } from './define'
import { POPUP_TAG_NAME, createFlowChatPopupElement } from './popup-element'

function defineOnce(registry: CustomElementRegistry, tagName: string, create: () => CustomElementConstructor) {
  const existing = registry.get(tagName)
  if (existing) return existing
  const element = create()
  registry.define(tagName, element)
  return element
}

/**
 * Registers `<flow-chat-bubble>` and `<flow-chat-popup>` (and `<flow-chat>`, which they contain).
 * Safe to call any number of times: the first definitions stay.
 */
export function defineFlowChatLaunchers(options: Omit<DefineOptions, 'tagName'> = {}): void {
  defineFlowChat(options)
  const registry = options.registry ?? customElements
  defineOnce(registry, BUBBLE_TAG_NAME, createFlowChatBubbleElement)
  defineOnce(registry, POPUP_TAG_NAME, createFlowChatPopupElement)
}
