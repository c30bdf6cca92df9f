import { type Html, html } from '../http/html'
import { iconUrl, webUrl } from './safe-url'
import type { ShareSettings } from './share-settings'

/** The page's title, description and preview, resolved from the flow's metadata. */
export interface PageMetadata {
  title: string
  description: string
  /** Absolute http(s) preview image for link unfurls, when the flow has a usable one. */
  imageUrl?: string
  /** http(s) or data:image favicon, when the flow has a usable one. */
  favIconUrl?: string
  /**
   * The page's address without query or fragment, from the service's configured public address
   * (never from the request's Host header, which the client writes). Undefined: no canonical tags.
   */
  canonicalUrl?: string
}

/** Seen on a flow with neither a title nor a name. */
const UNTITLED = 'Chat'

/**
 * Title and description fall back to the flow's name; unusable image or favicon addresses
 * (wrong scheme, relative, credentials, oversized) are left out rather than written.
 */
export function pageMetadata(settings: ShareSettings, canonicalUrl: string | undefined): PageMetadata {
  const { metadata } = settings
  const fallback = settings.flowName || UNTITLED
  return {
    title: metadata.title ?? fallback,
    description: metadata.description ?? fallback,
    imageUrl: webUrl(metadata.imageUrl),
    favIconUrl: iconUrl(metadata.favIconUrl),
    canonicalUrl,
  }
}

/**
 * The SEO and link-preview tags. Every value goes through the escaping template; a page without
 * a favicon gets an empty inline one so browsers do not ask this service for /favicon.ico.
 */
export function headTags(meta: PageMetadata): Html {
  const image = meta.imageUrl
  return html`<title>${meta.title}</title>
<meta name="description" content="${meta.description}">
${meta.canonicalUrl ? html`<link rel="canonical" href="${meta.canonicalUrl}">\n` : ''}<link rel="icon" href="${meta.favIconUrl ?? 'data:,'}">
<meta property="og:type" content="website">
${meta.canonicalUrl ? html`<meta property="og:url" content="${meta.canonicalUrl}">\n` : ''}<meta property="og:title" content="${meta.title}">
<meta property="og:description" content="${meta.description}">
${image ? html`<meta property="og:image" content="${image}">\n` : ''}<meta name="twitter:card" content="${image ? 'summary_large_image' : 'summary'}">
<meta name="twitter:title" content="${meta.title}">
<meta name="twitter:description" content="${meta.description}">
${image ? html`<meta name="twitter:image" content="${image}">` : ''}`
}
