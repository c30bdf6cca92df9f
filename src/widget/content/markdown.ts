import { Marked } from 'marked'
import { createBlockSplitter } from './markdown-blocks'
import type { Sanitizer } from './purify'

/** Markdown (an AI answer) → safe nodes. */
export type MarkdownRenderer = (markdown: string) => DocumentFragment

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const escape = (text: string) => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!)

/**
 * GitHub-flavoured Markdown with single newlines as line breaks (as chat answers are written),
 * through `marked`, then the widget's sanitizer (DOMPurify and its allow-lists: links through the
 * URL allow-list, opening in a new tab without opener or referrer). Two choices on top:
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
    renderer: {
      html: ({ text }) => escape(text),
      image: ({ href, text }) => `<a href="${escape(href)}">${escape(text || 'Image')}</a>`,
    },
  })
  return (markdown) => sanitize(marked.parse(markdown, { async: false }))
}

/** A whole Markdown text, rendered block by block exactly as it would have streamed in. */
export function renderMarkdown(render: MarkdownRenderer, markdown: string): DocumentFragment {
  const splitter = createBlockSplitter()
  const fragment = document.createDocumentFragment()
  for (const block of splitter.push(markdown)) fragment.append(render(block))
  fragment.append(render(splitter.open))
  return fragment
}
