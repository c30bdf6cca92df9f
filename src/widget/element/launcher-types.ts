import type { FlowChatBubbleElement, FlowChatPopupElement } from './launcher-element'

// Types only: `document.querySelector('flow-chat-bubble')` is typed, and `flowchat:open` /
// `flowchat:close` join the other `flowchat:*` events on every element.
declare global {
  interface HTMLElementTagNameMap {
    'flow-chat-bubble': FlowChatBubbleElement
    'flow-chat-popup': FlowChatPopupElement
  }
  interface HTMLElementEventMap {
    'flowchat:open': CustomEvent<Record<string, never>>
    'flowchat:close': CustomEvent<Record<string, never>>
  }
}
