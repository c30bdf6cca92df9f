/** A node of the `richText` tree as it arrives: untrusted, so every field is checked before use. */
export interface RichElement {
  type: string
  children: unknown[]
  url?: unknown
}

export interface RichLeaf {
  text: string
  bold?: unknown
  italic?: unknown
  underline?: unknown
  strikethrough?: unknown
  code?: unknown
}

/** Deeper trees are cut: no real message needs them and they would only cost stack. */
export const MAX_RICH_TEXT_DEPTH = 24

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

export const isRichLeaf = (value: unknown): value is RichLeaf =>
  isObject(value) && typeof value.text === 'string'

export const isRichElement = (value: unknown): value is RichElement =>
  isObject(value) && Array.isArray(value.children)

/** Block-level types: their text is separated by line breaks when flattened. */
export const BLOCK_TYPES = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'blockquote', 'ol', 'ul'])
