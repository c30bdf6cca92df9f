/**
 * Locks the host page's scrolling while any modal is open. Counted, so two popups open at once
 * unlock only when the last closes, and the page's own `overflow` value comes back exactly.
 */
let locks = 0
let saved = ''

export function lockPageScroll(): () => void {
  const root = document.documentElement
  if (locks++ === 0) {
    saved = root.style.overflow
    root.style.overflow = 'hidden'
  }
  let released = false
  return () => {
    if (released) return
    released = true
    if (--locks === 0) root.style.overflow = saved
  }
}
