import { MAX_RICH_TEXT_DEPTH } from '../../../../protocol/rich-text'

/**
 * Rich text as the engine handles it: the reading rules (depth, blocks, plain text) are the
 * contract's, shared with the widget; substituting variables into a tree is the engine's own.
 */
export { richTextToPlain as richTextToPlainText } from '../../../../protocol/rich-text'

type Node = Record<string, unknown>

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A copy of the tree with `transform` applied to every leaf text and link url. */
export function mapRichText(nodes: unknown[], transform: (text: string) => string): unknown[] {
  return mapNodes(nodes, transform, 0)
}

function mapNodes(nodes: unknown[], transform: (text: string) => string, depth: number): unknown[] {
  if (depth > MAX_RICH_TEXT_DEPTH) return []
  return nodes.map((node) => {
    if (!isNode(node)) return node
    const copy: Node = { ...node }
    if (typeof node.text === 'string') copy.text = transform(node.text)
    if (typeof node.url === 'string') copy.url = transform(node.url)
    if (Array.isArray(node.children)) copy.children = mapNodes(node.children, transform, depth + 1)
    return copy
  })
}
