import type { CHAT_PROPERTIES } from '../element/chat-properties'
import type { BUBBLE_PROPERTIES, POPUP_PROPERTIES } from '../element/launcher-properties'
import type { Options } from '../element/properties'

/**
 * The options of `FlowChat.initStandard`, `initBubble` and `initPopup`: the element's properties
 * (chat-properties.ts, launcher-properties.ts), so an option added there is one here too.
 */
export type CommonEmbedOptions = Options<typeof CHAT_PROPERTIES> & {
  /** Flow id or public id (required). */
  flow: string
}

export type StandardEmbedOptions = CommonEmbedOptions & {
  /** Where the chat goes: an element or a CSS selector; default `document.body`. */
  container?: Element | string
}

export type BubbleEmbedOptions = Options<typeof BUBBLE_PROPERTIES> & { flow: string }

export type PopupEmbedOptions = Options<typeof POPUP_PROPERTIES> & { flow: string }
