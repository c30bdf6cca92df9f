import { ENGLISH } from '../i18n/strings'

/**
 * The chat's views (its Preact components and their stylesheet): a chunk of its own, requested as
 * a chat starts, beside the conversation's first requests, so the core script a page loads first
 * holds what starts a chat and nothing it only shows. Ready once the theme's look is in as well
 * (requested beside it by preloadChatView), so no bubble shows in the default colours first.
 */
export const loadChatView = () =>
  import('../ui/index').then(async (views) => {
    await views.loadLook()
    return views
  })

/**
 * Chunks every chat shows at once (the theme's look, what the live region says), requested with
 * the views rather than once they render: all of them travel beside the first requests.
 */
export function preloadChatView(): void {
  for (const load of [loadChatView, () => import('../ui/theme/theme-vars'), () => import('../ui/live-region')]) void load().catch(() => {})
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
