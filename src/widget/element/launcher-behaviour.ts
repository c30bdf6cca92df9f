import type { FlowChatElement } from './flow-chat-element'

/*
 * Between a launcher element (launcher-element.ts, in the core) and the launchers chunk that makes
 * it work (launchers/): what each expects of the other, in a module of types neither depends on.
 */

/** `bubble` (<flow-chat-bubble>) or `popup` (<flow-chat-popup>). */
export type LauncherKind = 'bubble' | 'popup'

/** What the launchers chunk gives an element: its window mechanics and its inner chat. */
export interface LauncherBehaviour {
  readonly isOpen: boolean
  readonly chat: FlowChatElement | null
  connected(): void
  disconnected(): void
  open(): void
  close(): void
  toggle(): void
  reload(): void
  reset(): void
  showPreviewMessage?(text?: string): void
  hidePreviewMessage?(): void
}

/**
 * A launcher's class. Its `pendingOptions` are those of a FlowChat.init* call, applied by the
 * launchers chunk (which has the property table). Kept on the registered class, not in a module:
 * with the script on a page twice, the element class is the first copy's, and so is the chunk
 * that applies them.
 */
export interface LauncherClass {
  readonly pendingOptions: WeakMap<HTMLElement, Record<string, unknown>>
}
