/**
 * The launchers chunk: what a `<flow-chat-bubble>` or `<flow-chat-popup>` does. Loaded lazily, next
 * to the core script, when the first one connects (see launcher-element.ts).
 */
import type { FlowChatElementOptions } from '../flow-chat-element'
import type { LauncherBehaviour, LauncherKind } from '../launcher-element'
import { Bubble } from './bubble'
import { Popup } from './popup'

export function createLauncher(kind: LauncherKind, host: HTMLElement, options: FlowChatElementOptions): LauncherBehaviour {
  return kind === 'bubble' ? new Bubble(host, options) : new Popup(host, options)
}
