/**
 * How a `richText` tree is read, by the service (variable substitution, plain text for messages)
 * and by the widget (rendering, announcements, typing time) alike. The tree is a list of elements
 * `{type, children, url?}` whose leaves are `{text, bold?, italic?, …}`. It comes from imported
 * flows, so it is walked defensively: unknown shapes are skipped, never trusted.
 */

/** A leaf: its text only ever becomes text. */
export interface RichLeaf {
  text: string
  bold?: unknown
  italic?: unknown
  underline?: unknown
  strikethrough?: unknown
  code?: unknown
}

export interface RichElement {
  type?: unknown
  children: unknown[]
  url?: unknown
}

/** Nesting deeper than any editor produces is cut off, instead of exhausting the stack. */
export const MAX_RICH_TEXT_DEPTH = 32

/** Elements whose text starts on its own line in plain text. */
export const RICH_TEXT_BLOCKS: ReadonlySet<string> = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'ol',
  'ul',
  'li',
  'lic',
  'code_block',
  'hr',
])

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

export const isRichLeaf = (value: unknown): value is RichLeaf => isObject(value) && typeof value.text === 'string'

export const isRichElement = (value: unknown): value is RichElement => isObject(value) && Array.isArray(value.children)

const isBlock = (node: unknown) => isRichElement(node) && RICH_TEXT_BLOCKS.has(String(node.type))

/** The text a screen reader or a notification would read: one line per paragraph or item. */
export function richTextToPlain(nodes: readonly unknown[]): string {
  return joinText(nodes, 0, true)
}

function joinText(nodes: readonly unknown[], depth: number, isRoot = false): string {
  if (depth > MAX_RICH_TEXT_DEPTH) return ''
  const separator = isRoot || nodes.some(isBlock) ? '\n' : ''
  return nodes.map((node) => textOf(node, depth)).join(separator)
}

function textOf(node: unknown, depth: number): string {
  if (isRichLeaf(node)) return node.text
  return isRichElement(node) ? joinText(node.children, depth + 1) : ''
}
