import DOMPurify from 'dompurify'
import { LINK_SCHEMES, safeUrl, WEB_SCHEMES } from './url'

/**
 * Tags a message may keep. No forms, media, frames, SVG or `style`: an html-only message is
 * formatted text, links and images, nothing that can run, restyle the widget or ask for input.
 */
const ALLOWED_TAGS = [
  'a',
  'b',
  'strong',
  'i',
  'em',
  'u',
  's',
  'del',
  'ins',
  'mark',
  'small',
  'sub',
  'sup',
  'code',
  'pre',
  'kbd',
  'br',
  'p',
  'div',
  'span',
  'ul',
  'ol',
  'li',
  'blockquote',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'img',
  'table',
  'thead',
  'tbody',
  'tr',
  'td',
  'th',
]
const ALLOWED_ATTR = ['href', 'src', 'alt', 'title', 'width', 'height', 'colspan', 'rowspan', 'lang', 'dir']
const TAG_SET = new Set(ALLOWED_TAGS)
const ATTR_SET = new Set(ALLOWED_ATTR)

/** Turns an html message into safe nodes; its relative image addresses resolve against `base` (the flow service). */
export type Sanitizer = (html: string, base?: string) => DocumentFragment

/**
 * DOMPurify, a private instance, and the widget's own allow-lists. Only the html chunk
 * (ui/html.tsx) uses it, so it loads with that chunk, for an html-only message.
 */
export function createSanitizer(): Sanitizer {
  // A private instance: hooks or settings a host page put on its own DOMPurify do not apply here.
  const purify = DOMPurify(window)
  return (html, base) => {
    const fragment = purify.sanitize(html, {
      ALLOWED_TAGS,
      ALLOWED_ATTR,
      ALLOW_DATA_ATTR: false,
      RETURN_DOM_FRAGMENT: true,
    })
    enforceAllowList(fragment, base)
    return fragment
  }
}

/**
 * A second, independent pass over DOMPurify's output with the same allow-lists plus the widget's
 * own URL rules: whatever DOMPurify version or DOM implementation runs, nothing outside the lists
 * survives. Links open in a new tab without opener; images load lazily without referrer.
 */
function enforceAllowList(parent: ParentNode, base: string | undefined): void {
  for (const element of Array.from(parent.children)) {
    if (!TAG_SET.has(element.localName)) {
      element.remove()
      continue
    }
    for (const { name } of Array.from(element.attributes)) {
      if (!ATTR_SET.has(name)) element.removeAttribute(name)
    }
    const tag = element.localName
    if (tag !== 'img') element.removeAttribute('src')
    else if (!secureImage(element, base)) {
      element.remove()
      continue
    }
    if (tag === 'a') secureLink(element)
    else element.removeAttribute('href')
    enforceAllowList(element, base)
  }
}

function secureLink(link: Element): void {
  const href = safeUrl(link.getAttribute('href'), LINK_SCHEMES)
  if (!href) {
    link.removeAttribute('href')
    return
  }
  link.setAttribute('href', href)
  link.setAttribute('target', '_blank')
  link.setAttribute('rel', 'noopener noreferrer')
}

function secureImage(image: Element, base: string | undefined): boolean {
  const src = safeUrl(image.getAttribute('src'), WEB_SCHEMES, base)
  if (!src) return false
  image.setAttribute('src', src)
  image.setAttribute('loading', 'lazy')
  image.setAttribute('referrerpolicy', 'no-referrer')
  if (!image.hasAttribute('alt')) image.setAttribute('alt', '')
  return true
}
