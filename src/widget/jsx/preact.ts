/**
 * `flow-chat-widget/preact`: the library, plus `<flow-chat>`, `<flow-chat-bubble>` and
 * `<flow-chat-popup>` as typed JSX tags for Preact (`preact`'s `JSX.IntrinsicElements`, which
 * `preact/jsx-runtime` shares). Values may be signals, as on Preact's own elements.
 * Events are not props: listen with `addEventListener` on a ref (see docs/integrators/javascript-api.md).
 */
import type { HTMLAttributes, Signalish } from 'preact'
import type { FlowChatElement } from '../element/flow-chat-element'
import type { FlowChatBubbleElement, FlowChatPopupElement } from '../element/launcher-element'
import type { FlowChatAttributes, FlowChatBubbleAttributes, FlowChatPopupAttributes } from './attributes'

/** Preact's own props of an HTML element (`ref`, `class`, `style`, `key`, …) plus the tag's. */
export type FlowChatPreactProps<Element extends HTMLElement, Attributes> = HTMLAttributes<Element> & {
  [Name in keyof Attributes]?: Signalish<Attributes[Name] | undefined>
}

declare module 'preact' {
  namespace JSX {
    interface IntrinsicElements {
      'flow-chat': FlowChatPreactProps<FlowChatElement, FlowChatAttributes>
      'flow-chat-bubble': FlowChatPreactProps<FlowChatBubbleElement, FlowChatBubbleAttributes>
      'flow-chat-popup': FlowChatPreactProps<FlowChatPopupElement, FlowChatPopupAttributes>
    }
  }
}

export * from '../index'
export type { FlowChatAttributes, FlowChatBubbleAttributes, FlowChatPopupAttributes, LengthValue } from './attributes'
