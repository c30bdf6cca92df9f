import { canAdoptSheets, css } from '../ui/css'

export interface StyleTarget {
  /** Adds the chat views' stylesheet (from their chunk) under the theme's custom CSS. */
  setViews(css: string): void
  /** Replaces the flow theme's `customCss` (scoped to this shadow root). */
  setCustomCss(css: string): void
}

/**
 * The element's own box, in the core: its size and reset from the first frame, so the page does
 * not move when the views' stylesheet arrives with their chunk, and a dark box at once in the dark
 * scheme (theme/scheme.ts brings its colours).
 */
const HOST_CSS = css`
:host { all: initial; display: block; position: relative; width: 100%; height: 600px; font-size: 16px; line-height: 1.5; -webkit-text-size-adjust: 100%; }
:host([hidden]) { display: none; }
:host([color-scheme="dark"]) { color-scheme: dark; background: #15171b; }
@media (prefers-color-scheme: dark) { :host([color-scheme="auto"]) { color-scheme: dark; background: #15171b; } }
.mount { display: contents; }
`

/** One parsed copy of each shared stylesheet, for every widget on the page. */
const shared = new Map<string, CSSStyleSheet>()
const sheetOf = (text: string) => {
  let sheet = shared.get(text)
  if (!sheet) {
    sheet = new CSSStyleSheet()
    shared.set(text, sheet)
    sheet.replaceSync(text)
  }
  return sheet
}

/** The widget's stylesheets and the theme's custom CSS on a shadow root (see `canAdoptSheets`). */
export function adoptStyles(root: ShadowRoot): StyleTarget {
  if (canAdoptSheets(root)) {
    const custom = new CSSStyleSheet()
    root.adoptedStyleSheets = [sheetOf(HOST_CSS), custom]
    return {
      setViews: (text) => void (root.adoptedStyleSheets = [sheetOf(HOST_CSS), sheetOf(text), custom]),
      setCustomCss: (text) => custom.replaceSync(text),
    }
  }
  const host = document.createElement('style')
  host.textContent = HOST_CSS
  const views = document.createElement('style')
  const custom = document.createElement('style')
  root.prepend(host, views, custom)
  return { setViews: (text) => void (views.textContent = text), setCustomCss: (text) => void (custom.textContent = text) }
}
