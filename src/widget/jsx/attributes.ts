/**
 * The attributes of `<flow-chat>`, `<flow-chat-bubble>` and `<flow-chat-popup>` as a framework
 * writes them in markup: kebab-case names, text values (a number is written as its decimal text,
 * a length in pixels), booleans present or absent. `react.ts` and `preact.ts` turn these into
 * JSX tag types; Vue, Svelte or Solid users can build theirs from them.
 */
import type { FlowChatElement } from '../element/flow-chat-element'

/** A CSS length (`"24rem"`, `"70vh"`), or a number of pixels. */
export type LengthValue = string | number

export interface FlowChatAttributes {
  /** Flow id or public id of the published flow. */
  flow?: string
  /** Base URL of the flow API; empty: the page's origin. */
  'api-host'?: string
  /** Base URL of the chat API (`startChat`, `continueChat`); defaults to `api-host`. */
  'chat-api-host'?: string
  /** Publishable token, sent only to read the published flow. */
  token?: string
  /** The script sandbox document; default `/sandbox/v1/sandbox.html` on the chat API host. */
  'sandbox-url'?: string
  /** Time limit of one flow script in milliseconds (default 10000). */
  'script-timeout'?: number | string
  /** Lets flow scripts make network requests (never with the page's credentials). */
  'allow-script-network'?: boolean
  /** Accessible name of the chat (and title of a bubble's window or popup). */
  label?: string
  /** Names this chat's remembered conversation, when several chats of one flow share a page. */
  'storage-key'?: string
  /**
   * Variables sent when a conversation starts. Not an attribute: React 19 and Preact set it as a
   * property, which needs the element defined before they render it (import the library first).
   */
  prefilledVariables?: FlowChatElement['prefilledVariables']
}

export interface FlowChatBubbleAttributes extends FlowChatAttributes {
  /** Corner of the launcher: `right` (default) or `left`. */
  placement?: 'left' | 'right'
  /** Launcher diameter (default 48px). */
  'button-size'?: LengthValue
  /** Distance of the launcher from the page edges (default 20px). */
  offset?: LengthValue
  /** Stacking order of the launcher and window (default 1000). */
  'z-index'?: number | string
  /** Largest window width (default 400px), always within the viewport. */
  'max-width'?: LengthValue
  /** Largest window height (default 704px), always within the viewport. */
  'max-height'?: LengthValue
  /** Launcher colour; default the flow theme's button colour. */
  'button-color'?: string
  /** Launcher icon colour; default the flow theme's button text colour. */
  'icon-color'?: string
  /** An http(s) image to show in the launcher instead of the chat icon. */
  'icon-url'?: string
  /** A message shown beside the launcher; clicking it opens the chat. */
  'preview-message'?: string
  /** An http(s) image shown with the preview message. */
  'preview-avatar'?: string
  /** Milliseconds before the preview message appears. */
  'preview-delay'?: number | string
  /** Open the window on load (without taking the page's focus). */
  'default-open'?: boolean
}

export interface FlowChatPopupAttributes extends FlowChatAttributes {
  /** Largest dialog width (default 560px), always within the viewport. */
  'max-width'?: LengthValue
  /** Largest dialog height (default 680px), always within the viewport. */
  'max-height'?: LengthValue
  /** Header colour; default the flow theme's button colour. */
  'button-color'?: string
  /** Header text colour; default the flow theme's button text colour. */
  'icon-color'?: string
  /** Milliseconds after which the popup opens by itself (unless opened before). */
  'auto-show-delay'?: number | string
  /** Open on load. */
  'default-open'?: boolean
}
