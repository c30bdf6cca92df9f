const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), iframe, [tabindex]:not([tabindex="-1"]), [contenteditable="true"]'

/**
 * Focusable elements under `root` in tree order, looking inside open shadow roots (the chat is
 * one), so a focus trap can find the real first and last stops.
 */
export function focusableWithin(root: ParentNode): HTMLElement[] {
  const found: HTMLElement[] = []
  const visit = (node: ParentNode) => {
    for (const element of Array.from(node.children) as HTMLElement[]) {
      if (element.matches(FOCUSABLE) && isVisible(element)) found.push(element)
      // A shadow host renders its shadow tree, not its light children, in that place.
      visit(element.shadowRoot ?? element)
    }
  }
  visit(root)
  return found
}

function isVisible(element: HTMLElement): boolean {
  return element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden'
}
