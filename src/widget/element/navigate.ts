import type { Navigate } from '../chat/index'

/**
 * Redirect actions: a new tab never gets a handle on this page (`noopener`) nor its URL; a mail,
 * phone or text link is handed to its app from this tab, which stays.
 */
export const browserNavigate: Navigate = (url, newTab) => {
  if (newTab) window.open(url, '_blank', 'noopener,noreferrer')
  else window.location.assign(url)
}
