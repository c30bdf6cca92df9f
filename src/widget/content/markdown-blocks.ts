import { runEnd } from './markdown-lexer'

/**
 * Splits Markdown that arrives in pieces into blocks that are complete (they can be rendered once
 * and never again) and the one still being written. A block ends at a blank line followed by a
 * line that starts at the margin, outside fenced code; everything before that point cannot change
 * its rendering any more (reference-style link definitions aside: each block is rendered alone).
 * Each piece costs its own length: the text is scanned once.
 *
 * A block is at most MAX_BLOCK characters, so rendering one is a bounded piece of work (a frame's
 * worth, whatever the text): a longer one ends before the line that would take it past, or within
 * a longer line (as markdown-lexer.ts cuts inline runs), and fenced code cut this way is opened
 * again in the next block, which then starts with the fence.
 */
export interface BlockSplitter {
  /** Adds a piece; returns the blocks it completed, oldest first. */
  push(piece: string): string[]
  /** The block being written (rendered again as it grows). */
  readonly open: string
}

export const MAX_BLOCK = 8 * 1024

const FENCE = /^ {0,3}(`{3,}|~{3,})/

export function createBlockSplitter(): BlockSplitter {
  let open = ''
  /** Where the line being written starts in `open`. */
  let lineStart = 0
  /** How far `open` has been searched for a newline. */
  let scanned = 0
  /** Where a run of blank lines (outside a fence) starts in `open`; -1 when the last line was not blank. */
  let blankAt = -1
  /** The fence of the code being read, and the line that opens it again after a cut. */
  let fence: { char: string; length: number; reopen: string } | null = null
  let lineChecked = false
  /** Length of the fence line `open` starts with after a cut inside code (0: none). */
  let reopened = 0

  /**
   * Completes the block `open` holds before `end`; the open block goes on from `from` (after the
   * fence's line again, inside code). Returns how far `open` moved.
   */
  const cut = (end: number, done: string[], from = end): number => {
    const block = open.slice(0, end)
    if (block.trim()) done.push(block)
    const prefix = fence?.reopen ?? ''
    const shift = from - prefix.length
    open = prefix + open.slice(from)
    // Cut within the line being read, its rest begins the open block.
    lineStart = Math.max(lineStart - shift, prefix.length)
    scanned = Math.max(scanned - shift, lineStart)
    blankAt = -1
    reopened = prefix.length
    return shift
  }

  /** The block would pass MAX_BLOCK by the line being read: it ends before that line, or within it when it is the block's only line. */
  const bound = (lineEnd: number, done: string[]): number => {
    let moved = 0
    while (lineEnd - moved > MAX_BLOCK)
      moved += cut(lineStart > reopened ? lineStart : runEnd(open, lineStart, MAX_BLOCK - lineStart), done)
    return moved
  }

  /**
   * The line at `lineStart` begins with `first`: after blank lines, at the margin, it starts a
   * new block, and the one before is complete. Returns how far `open` moved (0 without a split).
   */
  const split = (first: string, done: string[]): number => {
    lineChecked = true
    if (fence || blankAt < 0 || /\s/.test(first)) return 0
    return cut(blankAt, done, lineStart)
  }

  return {
    push(piece) {
      open += piece
      const done: string[] = []
      for (let newline = open.indexOf('\n', scanned); newline >= 0; newline = open.indexOf('\n', scanned)) {
        if (!lineChecked && newline > lineStart) newline -= split(open[lineStart]!, done)
        newline -= bound(newline + 1, done)
        const line = open.slice(lineStart, newline)
        const marker = FENCE.exec(line)
        if (fence) {
          if (marker && marker[1]![0] === fence.char && marker[1]!.length >= fence.length && !line.slice(marker[0].length).trim())
            fence = null
        } else if (marker) {
          fence = { char: marker[1]![0]!, length: marker[1]!.length, reopen: `${marker[0].slice(0, 35)}\n` }
        } else if (!line.trim()) {
          if (blankAt < 0) blankAt = lineStart
        } else {
          blankAt = -1
        }
        lineStart = scanned = newline + 1
        lineChecked = false
      }
      if (!lineChecked && open.length > lineStart) split(open[lineStart]!, done)
      bound(open.length, done)
      scanned = open.length
      return done
    },
    get open() {
      return open
    },
  }
}
