import { Marked } from 'marked'
import { boundedLexer } from './markdown-lexer'
import type { Sanitizer } from './purify'

/** Markdown (an AI answer) → safe nodes. */
export type MarkdownRenderer = (markdown: string) => DocumentFragment

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const escapeText = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!)

/**
 * GitHub-flavoured Markdown with single newlines as line breaks (as chat answers are written),
 * through `marked`, then the widget's sanitizer (DOMPurify and its allow-lists: links through the
 * URL allow-list, opening in a new tab without opener or referrer), its lexer bounded in depth and
 * in the length of text it reads at once (markdown-lexer.ts). Two choices on top:
 * - raw HTML in the Markdown is shown as the text it is, never as markup (an answer about HTML
 *   shows its tags; nothing an AI was tricked into writing becomes an element);
 * - images become links to the picture: loading it by itself would let text that a prompt
 *   injection wrote send the conversation to any server, in the picture's address.
 */
export function createMarkdownRenderer(sanitize: Sanitizer): MarkdownRenderer {
  const marked = new Marked({
    gfm: true,
    breaks: true,
    async: false,
    hooks: { provideLexer: boundedLexer },
    renderer: {
      html: ({ text }) => escapeText(text),
      image: ({ href, text }) => `<a href="${escapeText(href)}">${escapeText(text || 'Image')}</a>`,
    },
  })
  return (markdown) => sanitize(marked.parse(markdown, { async: false }))
}
