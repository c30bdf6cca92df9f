import type { FlowChatEventMap } from '../chat/index'
import type { FlowChatElement } from './flow-chat-element'

type FlowChatDomEvents = { [K in keyof FlowChatEventMap]: CustomEvent<FlowChatEventMap[K]> }

// Types only: `document.querySelector('flow-chat')` and `addEventListener('flowchat:…')` are
// typed for TypeScript users of the library. Nothing here exists at run time.
declare global {
  interface HTMLElementTagNameMap {
    'flow-chat': FlowChatElement
  }
  interface HTMLElementEventMap extends FlowChatDomEvents {}
}
