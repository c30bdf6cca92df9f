/**
 * The attributes of `<flow-chat>`, `<flow-chat-bubble>` and `<flow-chat-popup>` as a framework
 * writes them in markup: kebab-case names, text values (a number is written as its decimal text,
 * a length in pixels), booleans present or absent; `prefilledVariables` as a property. They follow
 * from the elements' property tables. `react.ts` and `preact.ts` turn them into JSX tag types;
 * Vue, Svelte or Solid users can build theirs from them.
 */
import type { CHAT_PROPERTIES } from '../element/chat-properties'
import type { BUBBLE_PROPERTIES, POPUP_PROPERTIES } from '../element/launcher-properties'
import type { Attributes } from '../element/properties'

export type { LengthValue } from '../element/properties'

export type FlowChatAttributes = Attributes<typeof CHAT_PROPERTIES>
export type FlowChatBubbleAttributes = Attributes<typeof BUBBLE_PROPERTIES>
export type FlowChatPopupAttributes = Attributes<typeof POPUP_PROPERTIES>
