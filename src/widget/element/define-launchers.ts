import { type DefineOptions, defineFlowChat } from './define'
import { createLauncherElement, launcherTag } from './launcher-element'

/**
 * Registers `<flow-chat-bubble>` and `<flow-chat-popup>` (and `<flow-chat>`, which they contain).
 * Safe to call any number of times: the first definitions stay.
 */
export function defineFlowChatLaunchers(options: Omit<DefineOptions, 'tagName'> = {}): void {
  defineFlowChat(options)
  const registry = options.registry ?? customElements
  for (const kind of ['bubble', 'popup'] as const) {
    if (!registry.get(launcherTag(kind))) registry.define(launcherTag(kind), createLauncherElement(kind, options))
  }
}
