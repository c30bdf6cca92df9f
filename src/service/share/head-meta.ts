import { Parser } from 'htmlparser2'
import { type Html, html } from '../http/html'

/**
 * The `<meta name|property content>` tags of the owner's head code that describe the page, for
 * the share page's own `<head>`: link previews and search engines read only the page, never its
 * head frame, where the rest of that code runs (head-frame.ts). Every workspace's share pages
 * are on the service's one origin, so only tags that describe this one page cross, by an
 * allow-list: Open Graph and its object types, Twitter cards, `author`, `keywords`, `robots`,
 * `theme-color`. Never a tag that claims the site (search console and domain verification, ad
 * or payment accounts: they would hand the service's origin to a tenant), never `http-equiv`,
 * `charset` or a name that changes how the page behaves, nor one the page writes itself from the
 * flow's metadata. The tags are rebuilt from their name and content, both escaped; nothing else
 * of the code, and nothing inside its scripts, styles or comments, is read as a tag.
 */
export interface HeadMeta {
  attribute: 'name' | 'property'
  key: string
  content: string
}

export const MAX_HEAD_META_TAGS = 40
export const MAX_HEAD_META_CONTENT = 2_000
/** Head code read at most: what a page of meta tags could hold, many times over. */
const MAX_HEAD_CODE_READ = 200_000

const KEY = /^[A-Za-z][\w:.-]{0,99}$/
/** What describes a page: these names, and keys with these prefixes (Open Graph, its object types, Twitter cards). */
const DESCRIBING_NAMES = new Set(['author', 'keywords', 'robots', 'theme-color'])
const DESCRIBING_PREFIXES = /^(og|article|book|profile|music|video|twitter):[\w:.-]+$/
/** The tags the page writes from the flow's metadata. */
const REFUSED = new Set([
  'og:type',
  'og:url',
  'og:title',
  'og:description',
  'og:image',
  'twitter:card',
  'twitter:title',
  'twitter:description',
  'twitter:image',
])

export function headMetaTags(customHeadCode: string | undefined): HeadMeta[] {
  if (!customHeadCode) return []
  const found: HeadMeta[] = []
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name !== 'meta' || found.length >= MAX_HEAD_META_TAGS) return
        const tag = harmless(attributes)
        if (tag) found.push(tag)
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  )
  parser.end(customHeadCode.slice(0, MAX_HEAD_CODE_READ))
  return found
}

function harmless(attributes: Record<string, string>): HeadMeta | undefined {
  if ('http-equiv' in attributes || 'charset' in attributes || 'itemprop' in attributes) return undefined
  const { content } = attributes
  if (content === undefined || content.length > MAX_HEAD_META_CONTENT) return undefined
  const attribute = 'property' in attributes ? 'property' : 'name' in attributes ? 'name' : undefined
  const key = attribute && attributes[attribute]?.trim()
  if (!attribute || !key || !KEY.test(key) || REFUSED.has(key.toLowerCase()) || !describesPage(key.toLowerCase())) return undefined
  return { attribute, key, content }
}

function describesPage(key: string): boolean {
  return DESCRIBING_NAMES.has(key) || DESCRIBING_PREFIXES.test(key)
}

export function headMetaHtml(tags: readonly HeadMeta[]): Html {
  return html`${tags.map((tag) => html`<meta ${tag.attribute === 'name' ? html`name` : html`property`}="${tag.key}" content="${tag.content}">\n`)}`
}
