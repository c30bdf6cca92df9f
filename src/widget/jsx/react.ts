/**
 * `flow-chat-widget/react`: the library, plus `<flow-chat>`, `<flow-chat-bubble>` and
 * `<flow-chat-popup>` as typed JSX tags for React 19 (`React.JSX.IntrinsicElements`, which both
 * JSX runtimes read). Kept out of the main entry so the library never needs `@types/react`.
 * Events are not props: listen with `addEventListener` on a ref (see docs/integrators/javascript-api.md).
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react'
import type { FlowChatElement } from '../element/flow-chat-element'
import type { FlowChatBubbleElement, FlowChatPopupElement } from '../element/launcher-element'
import type { FlowChatAttributes, FlowChatBubbleAttributes, FlowChatPopupAttributes } from './attributes'

/** React's own props of an HTML element (`ref`, `className`, `style`, `key`, …) plus the tag's. */
export type FlowChatReactProps<Element extends HTMLElement, Attributes> = DetailedHTMLProps<HTMLAttributes<Element>, Element> & {
  [Name in keyof Attributes]?: Attributes[Name] | undefined
}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'flow-chat': FlowChatReactProps<FlowChatElement, FlowChatAttributes>
      'flow-chat-bubble': FlowChatReactProps<FlowChatBubbleElement, FlowChatBubbleAttributes>
      'flow-chat-popup': FlowChatReactProps<FlowChatPopupElement, FlowChatPopupAttributes>
    }
  }
}

export * from '../index'
export type { FlowChatAttributes, FlowChatBubbleAttributes, FlowChatPopupAttributes, LengthValue } from './attributes'
