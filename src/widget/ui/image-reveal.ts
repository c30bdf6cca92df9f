import { type Signal, signal } from '@preact/signals'
import type { HostEntry } from '../chat/index'
import { safeImageUrl } from '../content/url'

/**
 * Kept on the entry itself, under a registered symbol: the chunks that read it (the views, the
 * live region, AI answers) each carry this module, and all of them must see the one state of a
 * bubble. Per entry, so every widget on the page tracks its own bubbles.
 */
const SETTLED = Symbol.for('flow-chat:image-settled')

const settledSignal = (entry: HostEntry): Signal<boolean> =>
  ((entry as unknown as Record<symbol, Signal<boolean>>)[SETTLED] ??= signal(false))

const imageUrl = (entry: HostEntry) => {
  const content = entry.message.content as { url?: unknown } | null | undefined
  return safeImageUrl(typeof content === 'object' && content !== null ? content.url : undefined)
}

/**
 * An image bubble whose picture has neither loaded nor failed yet. It stays hidden, and so does
 * everything after it, so that it appears at its final size and nothing below it moves.
 * Reading it subscribes the component to the moment it settles.
 */
export function isImagePending(entry: HostEntry): boolean {
  return entry.message.type === 'image' && !settledSignal(entry).value && imageUrl(entry) !== null
}

/** The picture loaded, failed, or took too long: the bubble shows from now on. */
export function settleImage(entry: HostEntry): void {
  settledSignal(entry).value = true
}
