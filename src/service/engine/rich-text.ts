/**
 * Rich text is a tree of elements `{type, children, url?}` with leaves `{text, bold?, …}`.
 * It comes from an imported flow, so it is walked defensively: unknown shapes pass through,
 * and nesting deeper than any editor produces is cut off instead of exhausting the stack.
 */
const MAX_DEPTH = 64

/** Elements that start on their own line in plain text. */
const BLOCK_ELEMENTS = new Set([
  'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'ol', 'ul', 'li', 'lic', 'code_block', 'hr',
])

type Node = Record<string, unknown>

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** A copy of the tree with `transform` applied to every leaf text and link url. */
export function mapRichText(nodes: unknown[], transform: (text: string) => string): unknown[] {
  return mapNodes(nodes, transform, 0)
}

function mapNodes(nodes: unknown[], transform: (text: string) => string, depth: number): unknown[] {
  if (depth > MAX_DEPTH) return []
  return nodes.map((node) => {
    if (!isNode(node)) return node
    const copy: Node = { ...node }
    if (typeof node.text === 'string') copy.text = transform(node.text)
    if (typeof node.url === 'string') copy.url = transform(node.url)
    if (Array.isArray(node.children)) copy.children = mapNodes(node.children, transform, depth + 1)
    return copy
  })
}

/** The text a screen reader or a notification would show: one line per paragraph or item. */
export function richTextToPlainText(nodes: unknown[]): string {
  return joinChildren(nodes, 0, true)
}

function joinChildren(nodes: unknown[], depth: number, isRoot = false): string {
  if (depth > MAX_DEPTH) return ''
  const hasBlocks = isRoot || nodes.some((node) => isNode(node) && BLOCK_ELEMENTS.has(String(node.type)))
  return nodes.map((node) => textOf(node, depth)).join(hasBlocks ? '\n' : '')
}

function textOf(node: unknown, depth: number): string {
  if (!isNode(node)) return ''
  if (typeof node.text === 'string') return node.text
  return Array.isArray(node.children) ? joinChildren(node.children, depth + 1) : ''
}
