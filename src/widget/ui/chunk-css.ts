import { canAdoptSheets } from './css'

const adopted = new WeakMap<Node, Set<string>>()

/**
 * Adds a chunk's stylesheet to the widget's shadow root, once per root: the core's stylesheet
 * carries only what the core shows. (Outside a shadow root, as in unit tests, there is no
 * stylesheet of the widget's to add to.) Imported by chunks only, which carry it.
 */
export function adoptChunkCss(node: Node | null, css: string): void {
  const root = node?.getRootNode()
  if (!(root instanceof ShadowRoot)) return
  const done = adopted.get(root) ?? new Set<string>()
  if (done.has(css)) return
  adopted.set(root, done.add(css))
  // Right after the widget's stylesheet, before the theme's custom CSS (element/stylesheets.ts),
  // so a theme restyles a chunk's views as it does the core's.
  if (canAdoptSheets(root)) {
    const sheet = new CSSStyleSheet()
    sheet.replaceSync(css)
    const [base, ...rest] = root.adoptedStyleSheets
    root.adoptedStyleSheets = base ? [base, sheet, ...rest] : [sheet]
  } else {
    const style = document.createElement('style')
    style.textContent = css
    const base = root.querySelector('style')
    if (base) base.after(style)
    else root.append(style)
  }
}
