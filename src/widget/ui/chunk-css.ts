import { canAdoptSheets } from './styles'

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
  if (canAdoptSheets(root)) {
    const sheet = new CSSStyleSheet()
    sheet.replaceSync(css)
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet]
  } else {
    const style = document.createElement('style')
    style.textContent = css
    root.append(style)
  }
}
