/**
 * Whether the visitor left a bubble open, kept for the tab (session storage) so the window is
 * still open on the next page of the same site. Storage that throws just forgets.
 */
const keyFor = (flow: string) => `flowchat:bubble-open:${flow}`

export function wasLeftOpen(flow: string): boolean {
  try {
    return Boolean(flow) && window.sessionStorage.getItem(keyFor(flow)) === '1'
  } catch {
    return false
  }
}

export function rememberOpen(flow: string, open: boolean): void {
  if (!flow) return
  try {
    if (open) window.sessionStorage.setItem(keyFor(flow), '1')
    else window.sessionStorage.removeItem(keyFor(flow))
  } catch {
    // Blocked or full storage: the window simply starts closed on the next page.
  }
}
