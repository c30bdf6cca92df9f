import { CHAT_PROPERTIES } from './chat-properties'
import type { PropertyTable } from './properties'

/** What a bubble and a popup share beyond the chat's own properties (which they hand to it). */
const LAUNCHER_PROPERTIES = {
  ...CHAT_PROPERTIES,
  /** Names the remembered conversation: default the element's `id`, else its tag name. */
  storageKey: { ...CHAT_PROPERTIES.storageKey, fallback: (element: HTMLElement) => element.id || element.localName },
  /** Launcher (or popup header) colour; default the flow theme's button colour. */
  buttonColor: { attribute: 'button-color', kind: 'colour', style: '--fc-launcher-bg' },
  /** Icon (or popup title) colour; default the flow theme's button text colour. */
  iconColor: { attribute: 'icon-color', kind: 'colour', style: '--fc-launcher-color' },
  /** Open on load (a bubble without taking the page's focus). */
  defaultOpen: { attribute: 'default-open', kind: 'boolean' },
} as const satisfies PropertyTable

/** What every launcher's table has (a bubble's and a popup's add their own). */
export type LauncherTable = typeof LAUNCHER_PROPERTIES

/** `<flow-chat-bubble>`: a launcher in a corner of the page that opens the chat in a window. */
export const BUBBLE_PROPERTIES = {
  ...LAUNCHER_PROPERTIES,
  /** Corner of the launcher: `right` or `left`; default the page's end corner (`left` on a right-to-left page). */
  placement: {
    attribute: 'placement',
    kind: 'choice',
    choices: ['right', 'left'],
    fallback: (element) => (element.matches(':dir(rtl)') ? 'left' : 'right'),
  },
  /** Launcher diameter (default 48px). */
  buttonSize: { attribute: 'button-size', kind: 'length', style: '--fc-bubble-size' },
  /** Distance of the launcher from the page edges (default 20px). */
  offset: { attribute: 'offset', kind: 'length', style: '--fc-bubble-offset' },
  /** Stacking order of the launcher and window (default 1000). */
  zIndex: { attribute: 'z-index', kind: 'integer', style: '--fc-bubble-z-index' },
  /** Largest window width (default 400px), always within the viewport. */
  maxWidth: { attribute: 'max-width', kind: 'length', style: '--fc-bubble-max-width' },
  /** Largest window height (default 704px), always within the viewport. */
  maxHeight: { attribute: 'max-height', kind: 'length', style: '--fc-bubble-max-height' },
  /** An http(s) image to show in the launcher instead of the chat icon. */
  iconUrl: { attribute: 'icon-url', kind: 'url', roles: ['icon'] },
  /** A message shown beside the launcher; clicking it opens the chat. */
  previewMessage: { attribute: 'preview-message', kind: 'text', roles: ['preview'] },
  /** An http(s) image shown with the preview message. */
  previewAvatar: { attribute: 'preview-avatar', kind: 'url', roles: ['preview'] },
  /** Milliseconds before the preview message appears. */
  previewDelay: { attribute: 'preview-delay', kind: 'number', min: 0, fallback: () => 0 },
} as const satisfies PropertyTable

/** `<flow-chat-popup>`: the chat in a modal dialog. */
export const POPUP_PROPERTIES = {
  ...LAUNCHER_PROPERTIES,
  /** Largest dialog width (default 560px), always within the viewport. */
  maxWidth: { attribute: 'max-width', kind: 'length', style: '--fc-popup-max-width' },
  /** Largest dialog height (default 680px), always within the viewport. */
  maxHeight: { attribute: 'max-height', kind: 'length', style: '--fc-popup-max-height' },
  /** Milliseconds after which the popup opens by itself, unless opened before (absent: -1, never). */
  autoShowDelay: { attribute: 'auto-show-delay', kind: 'number', min: 0, fallback: () => -1 },
} as const satisfies PropertyTable
