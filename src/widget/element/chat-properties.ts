import type { PrefilledVariables } from '../../protocol/chat'
import { USER_HASH_ATTRIBUTE, USER_ID_ATTRIBUTE } from '../../protocol/identity'
import { SANDBOX_DOCUMENT_PATH } from '../../protocol/sandbox-policy'
import { SCRIPT_TIMEOUT_MS } from '../../protocol/time-limits'
import type { StringOverrides } from '../i18n/strings'
import type { ObjectProperty, PropertyTable } from './properties'

/**
 * The script sandbox next to the chat API (else the flow API, else the page's own origin: an
 * element, whose properties these are, only exists in a page).
 */
function defaultSandboxUrl(element: HTMLElement): string {
  const { chatApiHost, apiHost } = element as unknown as { chatApiHost: string; apiHost: string }
  return `${(chatApiHost.trim() || apiHost.trim() || location.origin).replace(/\/+$/, '')}${SANDBOX_DOCUMENT_PATH}`
}

/**
 * `<flow-chat>`'s properties, one line each (see properties.ts); a bubble or popup has them all
 * and hands them to the chat it contains.
 */
export const CHAT_PROPERTIES = {
  /** Flow id or public id of the published flow. */
  flow: { attribute: 'flow', kind: 'text', roles: ['restarts', 'launcher-theme'] },
  /** Base URL of the flow API; empty: the page's origin. */
  apiHost: { attribute: 'api-host', kind: 'text', roles: ['restarts', 'launcher-theme'] },
  /** Base URL of the chat API (`startChat`, `continueChat`); defaults to `api-host`. */
  chatApiHost: { attribute: 'chat-api-host', kind: 'text', roles: ['restarts'] },
  /** Publishable token, sent only to read the published flow. */
  token: { attribute: 'token', kind: 'text', roles: ['restarts', 'launcher-theme'] },
  /** The script sandbox document; default `/sandbox/v1/sandbox.html` on the chat API host. */
  sandboxUrl: { attribute: 'sandbox-url', kind: 'url', fallback: defaultSandboxUrl, roles: ['scripts'] },
  /** Time limit of one flow script in milliseconds (default 10 000, kept within 100 … 300 000). */
  scriptTimeout: { attribute: 'script-timeout', kind: 'number', min: 1, fallback: () => SCRIPT_TIMEOUT_MS.default, roles: ['scripts'] },
  /** Lets flow scripts make network requests (never with the page's credentials). */
  allowScriptNetwork: { attribute: 'allow-script-network', kind: 'boolean', roles: ['scripts'] },
  /**
   * Whether flow scripts read this page's address (`location`: href, origin, pathname, search,
   * hash, referrer; a read-only copy): `shared` (default) or `hidden` (every part empty).
   */
  pageAddress: { attribute: 'page-address', kind: 'choice', choices: ['shared', 'hidden'], fallback: () => 'shared', roles: ['scripts'] },
  /**
   * Where a flow's redirect to a web page opens: `page` (default: this tab, or a new one when the
   * flow says so) or `new-tab` (always a new tab: the flow never sends this page away).
   */
  redirects: { attribute: 'redirects', kind: 'choice', choices: ['page', 'new-tab'], fallback: () => 'page' },
  /**
   * Where the theme's web font comes from: empty, Google Fonts (or a custom font's own address);
   * `none`, no web font (the visitor's fonts); else a Google Fonts compatible CSS API URL of your own.
   */
  fonts: { attribute: 'fonts', kind: 'text' },
  /** Accessible name of the chat (and a launcher's title); name each chat on a busy page. Default "Chat", in the chat's language. */
  label: { attribute: 'label', kind: 'text', roles: ['renders'] },
  /** The chat's language (`fr`, `pt-BR`); default the nearest `lang` (the page's), else the browser's languages. */
  lang: { attribute: 'lang', kind: 'text', roles: ['renders', 'language'] },
  /** `ltr` or `rtl`; default the language's direction. */
  dir: { attribute: 'dir', kind: 'text', roles: ['renders', 'language'] },
  /** `light` (default), `dark`, or `auto`: the visitor's system setting (`prefers-color-scheme`). */
  colorScheme: {
    attribute: 'color-scheme',
    kind: 'choice',
    choices: ['light', 'dark', 'auto'],
    fallback: () => 'light',
    roles: ['renders'],
  },
  /**
   * The widget's own words, by id, over its translation (`{ send: 'Go' }`; see README). Not an
   * attribute; set it before the chat connects.
   */
  strings: { kind: 'object' } as ObjectProperty<StringOverrides>,
  /**
   * Names this chat's remembered conversation (with the flow): default the element's `id`, else
   * "default". Two chats of one flow on a page need different names to keep apart after reloads.
   */
  storageKey: { attribute: 'storage-key', kind: 'text', fallback: (element) => element.id || 'default', roles: ['restarts'] },
  /**
   * Variables sent when a conversation starts (set it before connecting, or `reset()` after). Not
   * an attribute: React 19 and Preact set it as a property, which needs the element defined first.
   */
  prefilledVariables: { kind: 'object' } as ObjectProperty<PrefilledVariables>,
  /**
   * The signed-in visitor's id in the site's own terms, with `user-hash`: their conversation
   * follows them to any device (docs/site-owners/identity.md). Alone, it is ignored with a warning.
   */
  userId: { attribute: USER_ID_ATTRIBUTE, kind: 'text', roles: ['restarts'] },
  /** HMAC-SHA256 of `user-id` with the workspace's identity secret (hex), computed by the site's server. */
  userHash: { attribute: USER_HASH_ATTRIBUTE, kind: 'text', roles: ['restarts'] },
} as const satisfies PropertyTable
