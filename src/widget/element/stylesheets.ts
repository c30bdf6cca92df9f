import { BASE_CSS, canAdoptSheets } from '../ui/index'

export interface StyleTarget {
  /** Replaces the flow theme's `customCss` (scoped to this shadow root). */
  setCustomCss(css: string): void
}

/** One parsed copy of the widget's CSS, shared by every widget on the page. */
let sharedBase: CSSStyleSheet | undefined

/** The widget's stylesheet and the theme's custom CSS on a shadow root (see `canAdoptSheets`). */
export function adoptStyles(root: ShadowRoot): StyleTarget {
  if (canAdoptSheets(root)) {
    if (!sharedBase) {
      sharedBase = new CSSStyleSheet()
      sharedBase.replaceSync(BASE_CSS)
    }
    const custom = new CSSStyleSheet()
    root.adoptedStyleSheets = [sharedBase, custom]
    return { setCustomCss: (css) => custom.replaceSync(css) }
  }
  const base = document.createElement('style')
  base.textContent = BASE_CSS
  const custom = document.createElement('style')
  root.prepend(base, custom)
  return { setCustomCss: (css) => void (custom.textContent = css) }
}
