/**
 * Splits Markdown that arrives in pieces into blocks that are complete (they can be rendered once
 * and never again) and the one still being written. A block ends at a blank line followed by a
 * line that starts at the margin, outside fenced code; everything before that point cannot change
 * its rendering any more (reference-style link definitions aside: each block is rendered alone).
 * Each piece costs its own length: the text is scanned once.
 */
export interface BlockSplitter {
  /** Adds a piece; returns the blocks it completed, oldest first. */
  push(piece: string): string[]
  /** The block being written (rendered again as it grows). */
  readonly open: string
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/

export function createBlockSplitter(): BlockSplitter {
  let open = ''
  /** Where the line being written starts in `open`. */
  let lineStart = 0
  /** How far `open` has been searched for a newline. */
  let scanned = 0
  /** Where a run of blank lines (outside a fence) starts in `open`; -1 when the last line was not blank. */
  let blankAt = -1
  let fence: { char: string; length: number } | null = null
  let lineChecked = false

  /**
   * The line at `lineStart` begins with `first`: after blank lines, at the margin, it starts a
   * new block, and the one before is complete. Returns how far `open` moved (0 without a split).
   */
  const split = (first: string, done: string[]): number => {
    lineChecked = true
    if (fence || blankAt < 0 || /\s/.test(first)) return 0
    const block = open.slice(0, blankAt)
    if (block.trim()) done.push(block)
    const shift = lineStart
    open = open.slice(shift)
    lineStart = 0
    blankAt = -1
    return shift
  }

  return {
    push(piece) {
      open += piece
      const done: string[] = []
      for (let newline = open.indexOf('\n', scanned); newline >= 0; newline = open.indexOf('\n', scanned)) {
        if (!lineChecked && newline > lineStart) newline -= split(open[lineStart]!, done)
        const line = open.slice(lineStart, newline)
        const marker = FENCE.exec(line)
        if (fence) {
          if (marker && marker[1]![0] === fence.char && marker[1]!.length >= fence.length && !line.slice(marker[0].length).trim()) fence = null
        } else if (marker) {
          fence = { char: marker[1]![0]!, length: marker[1]!.length }
        } else if (!line.trim()) {
          if (blankAt < 0) blankAt = lineStart
        } else {
          blankAt = -1
        }
        lineStart = scanned = newline + 1
        lineChecked = false
      }
      if (!lineChecked && open.length > lineStart) split(open[lineStart]!, done)
      scanned = open.length
      return done
    },
    get open() {
      return open
    },
  }
}
