import { html } from '../http/html'
import { headFrameElement } from './head-frame'
import { type HeadMeta, headMetaHtml } from './head-meta'
import { headTags, type PageMetadata } from './head-tags'

export interface SharePageAssets {
  /** The page script (query parameters → prefilled variables). */
  script: string
  stylesheet: string
  /** The widget's classic script bundle. */
  widgetScript: string
}

export interface SharePageInput {
  /** What the widget's `flow` attribute names: the flow's public id. */
  flow: string
  /** A publishable token of the flow's workspace (see share-token.ts). */
  token: string
  meta: PageMetadata
  /** The flow's head frame (owner's head code, tag manager), when it has one: see head-frame.ts. */
  headFrameUrl?: string
  hideQueryParams: boolean
  /** The harmless meta tags of the owner's head code (head-meta.ts). */
  headMeta: readonly HeadMeta[]
  assets: SharePageAssets
  /** The page's language and direction, which the chat speaks (see page-language.ts). */
  language: { lang: string; dir: 'ltr' | 'rtl' }
}

/**
 * The full-page chat, in the page's one main landmark under a heading that names it (for screen
 * readers; it is not shown): head tags from the flow's metadata, then the scripts, both deferred so they
 * run in this order once the document is parsed: the page script (it sets the element's
 * prefilled variables before the widget upgrades it), then the widget. Nothing the flow's owner
 * wrote runs in this page: their head code and tag manager live in the sandboxed head frame.
 *
 * The element has no `api-host`: the widget then calls the page's own origin, which is this
 * service whatever proxy stands in front of it.
 */
export function sharePage(input: SharePageInput): string {
  const { assets } = input
  return html`<!doctype html>
<html lang="${input.language.lang}" dir="${input.language.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
${headTags(input.meta)}
${headMetaHtml(input.headMeta)}<link rel="stylesheet" href="${assets.stylesheet}">
<script src="${assets.script}" defer${input.hideQueryParams ? html` data-hide-query-params` : ''}></script>
<script src="${assets.widgetScript}" defer></script>
</head>
<body>
<main>
<h1 class="share-title">${input.meta.title}</h1>
<noscript><p class="share-notice">This chat needs JavaScript. Please turn it on and reload the page.</p></noscript>
<flow-chat flow="${input.flow}" token="${input.token}" label="${input.meta.title}"></flow-chat>
</main>
${input.headFrameUrl ? html`${headFrameElement(input.headFrameUrl)}\n` : ''}</body>
</html>
`.toString()
}
