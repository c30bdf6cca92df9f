/**
 * Redirect actions: a new tab never gets a handle on this page (`noopener`) nor its URL; a mail,
 * phone or text link is handed to its app from this tab, which stays. `redirects="new-tab"` (the
 * preview in the owner's console, an app that must stay where it is) opens every web page in a
 * new tab: the flow never sends this tab anywhere.
 */
export function browserNavigate(url: string, newTab: boolean, redirects: 'page' | 'new-tab'): void {
  if (newTab || (redirects === 'new-tab' && /^https?:$/.test(new URL(url, location.href).protocol))) {
    window.open(url, '_blank', 'noopener,noreferrer')
  } else {
    window.location.assign(url)
  }
}
