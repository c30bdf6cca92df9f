import { Lexer, type MarkedOptions, type Token, type TokensList } from 'marked'

/**
 * `marked`'s lexer with limits for Markdown nobody vetted (an AI answer a prompt injection may have
 * written). Unbounded, it overflows the stack on a few thousand nested block quotes, lists or
 * emphasis markers, and reads some inline text in quadratic time: at each of a run of `_a` or `*a`
 * it looks ahead over the whole run for an e-mail address (30 KB took seconds). So:
 * - blocks nest at most MAX_BLOCK_NESTING deep and inline spans MAX_INLINE_NESTING deep; deeper
 *   content is shown as the text it is;
 * - inline text is read in runs of at most MAX_INLINE_RUN characters, cut at a line break or a
 *   space where there is one, so its cost grows with its length times a constant. Only a paragraph
 *   longer than a run can differ: a link or emphasis across a cut shows its markers. A run of
 *   more `*`, `_` or `~` than nesting can use is read apart, in short pieces.
 */
export const MAX_BLOCK_NESTING = 16
export const MAX_INLINE_NESTING = 16
export const MAX_INLINE_RUN = 2048

/**
 * Where the run of `text` starting at `from` ends: at most `length` on, before a line break (which
 * then begins the next run, so it still breaks the line) or after a space in its second half.
 */
export function runEnd(text: string, from: number, length = MAX_INLINE_RUN): number {
  const end = from + length
  if (end >= text.length) return text.length
  const half = from + length / 2
  const newline = text.lastIndexOf('\n', end - 1)
  if (newline >= half) return newline
  const space = text.lastIndexOf(' ', end - 1)
  if (space >= half) return space + 1
  // Never between the two halves of a surrogate pair.
  return /[\uD800-\uDBFF]/.test(text[end - 1]!) ? end - 1 : end
}

/** A run of emphasis or strikethrough markers longer than nesting can use, and the pieces it is read in. */
const MARKER_RUN = 4 * MAX_INLINE_NESTING
const LONG_MARKER_RUN = new RegExp(`([*_~])\\1{${MARKER_RUN},}`)

const literal = (text: string): Token => ({ type: 'text', raw: text, text })

class BoundedLexer<P, R> extends Lexer<P, R> {
  private blockDepth = 0
  private inlineDepth = 0

  override blockTokens(src: string, tokens?: Token[], lastParagraphClipped?: boolean): Token[]
  override blockTokens(src: string, tokens?: TokensList, lastParagraphClipped?: boolean): TokensList
  override blockTokens(src: string, tokens: Token[] = [], lastParagraphClipped?: boolean): Token[] {
    if (this.blockDepth >= MAX_BLOCK_NESTING) {
      tokens.push({ type: 'paragraph', raw: src, text: src, tokens: [literal(src)] })
      return tokens
    }
    this.blockDepth++
    try {
      return super.blockTokens(src, tokens, lastParagraphClipped)
    } finally {
      this.blockDepth--
    }
  }

  override inlineTokens(src: string, tokens: Token[] = []): Token[] {
    if (this.inlineDepth >= MAX_INLINE_NESTING) {
      tokens.push(literal(src))
      return tokens
    }
    this.inlineDepth++
    try {
      for (let from = 0, to = 0; from < src.length; from = to) {
        to = runEnd(src, from)
        let run = src.slice(from, to)
        // At each marker of a long run of them, marked scans the rest of the run for a closer:
        // such a run (which cannot nest deeper than the limit anyway) is read in pieces of its own.
        const long = run.search(LONG_MARKER_RUN)
        if (long >= 0) run = run.slice(0, long || MARKER_RUN)
        to = from + run.length
        super.inlineTokens(run, tokens)
      }
      return tokens
    } finally {
      this.inlineDepth--
    }
  }
}

/** The `provideLexer` hook that makes a `Marked` instance lex with the limits above. */
export const boundedLexer =
  () =>
  <P, R>(src: string, options?: MarkedOptions<P, R>) =>
    new BoundedLexer(options).lex(src)
