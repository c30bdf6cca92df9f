import { createMarkdownRenderer } from '../../../src/widget/content/markdown'
import type { Sanitizer } from '../../../src/widget/content/purify'

/**
 * The Markdown layer alone, its HTML parsed as is: DOMPurify under happy-dom drops a fragment's
 * first node, so sanitizing (links' schemes, target and rel; the XSS corpus) is checked in real
 * Chromium (test/browser/streaming.test.ts) and by purify.test.ts.
 */
export const parseAsIs: Sanitizer = (html) => {
  const template = document.createElement('template')
  template.innerHTML = html
  return template.content
}

export const renderAsIs = createMarkdownRenderer(parseAsIs)

/** `markdown` rendered whole into an element. */
export function markdownHtml(markdown: string): HTMLElement {
  const host = document.createElement('div')
  host.append(renderAsIs(markdown))
  return host
}
