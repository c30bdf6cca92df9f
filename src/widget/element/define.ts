import { createFlowChatElement, type FlowChatElement, type FlowChatElementOptions } from './flow-chat-element'

export const DEFAULT_TAG_NAME = 'flow-chat'

export interface DefineOptions extends FlowChatElementOptions {
  tagName?: string
  registry?: CustomElementRegistry
}

/**
 * Registers `<flow-chat>` (or `tagName`). Safe to call any number of times, as happens when the
 * script is included twice: the first definition stays and is returned.
 */
export function defineFlowChat(options: DefineOptions = {}): CustomElementConstructor {
  const registry = options.registry ?? customElements
  const tagName = options.tagName ?? DEFAULT_TAG_NAME
  const existing = registry.get(tagName)
  if (existing) return existing
  const element = createFlowChatElement(options)
  registry.define(tagName, element)
  return element
}

export type { FlowChatElement }
