import { ENGLISH } from '../i18n/strings'
import type { PublishedFlow } from '../transport/index'

/**
 * The chat's views (its Preact components, their stylesheet, the theme's look and what the live
 * region says): one chunk, requested as a chat starts, right after the conversation's first
 * requests, so the core script a page loads first holds what starts a chat and nothing it only
 * shows. The theme's look travels in it, so no bubble can show in the default colours first.
 */
export const loadChatView = () => import('../ui/index')

/** Requests the views before a chat needs them (a launcher on the page: its first open shows at once). */
export function preloadChatView(): void {
  void loadChatView().catch(() => {})
}

/**
 * The theme's parts the first screen shows beside the views, requested as soon as the published
 * flow names them rather than once the views render: the progress bar's chunk travels beside
 * the views and startChat (the font's chunk is requested by the element at the same moment).
 */
export function preloadThemeParts(theme: PublishedFlow['theme']): void {
  if (theme?.general?.progressBar?.isEnabled) void import('../ui/progress-bar').catch(() => {})
}

/**
 * What a visitor reads when the views cannot load (the page's event says why): the chat can show
 * nothing else without them. In English: the words in other languages are shown by those views.
 */
export function showUnavailable(mount: HTMLElement): void {
  const notice = document.createElement('p')
  notice.setAttribute('role', 'alert')
  notice.textContent = ENGLISH.failNetwork
  mount.replaceChildren(notice)
}
