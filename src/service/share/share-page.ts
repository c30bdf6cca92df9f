import { Html, html } from '../../../demo/site/html'
import { headTags, type PageMetadata } from './head-tags'
import { tagManagerScriptUrl } from './tag-manager'

export interface SharePageAssets {
  /** The page script (query parameters → prefilled variables, tag manager data layer). */
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
  /** A validated container id, or undefined for no tag manager. */
  tagManagerId?: string
  /** The owner's raw head markup, or undefined. */
  customHeadCode?: string
  hideQueryParams: boolean
  assets: SharePageAssets
}

/**
 * The full-page chat: head tags from the flow's metadata, then the scripts, all deferred so they
 * run in this order once the document is parsed: the page script (it sets the element's
 * prefilled variables before the widget upgrades it), then the widget. The tag manager loads
 * async: it picks up the data layer whenever it arrives and never holds the chat back.
 *
 * The element has no `api-host`: the widget then calls the page's own origin, which is this
 * service whatever proxy stands in front of it.
 *
 * The owner's head code comes last in <head>, raw: it is their page, and placed after our tags
 * it can add to them without a broken snippet hiding them from link-preview crawlers.
 */
export function sharePage(input: SharePageInput): string {
  const { assets } = input
  const pageScriptData = html`${input.hideQueryParams ? html` data-hide-query-params` : ''}${
    input.tagManagerId ? html` data-tag-manager="${input.tagManagerId}"` : ''
  }`
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
${headTags(input.meta)}
<link rel="stylesheet" href="${assets.stylesheet}">
<script src="${assets.script}" defer${pageScriptData}></script>
${input.tagManagerId ? html`<script src="${tagManagerScriptUrl(input.tagManagerId)}" async></script>\n` : ''}<script src="${assets.widgetScript}" defer></script>
${input.customHeadCode ? new Html(`<!-- head code set by the flow's owner -->\n${input.customHeadCode}\n`) : ''}</head>
<body>
<noscript><p class="share-notice">This chat needs JavaScript. Please turn it on and reload the page.</p></noscript>
<flow-chat flow="${input.flow}" token="${input.token}"></flow-chat>
</body>
</html>
`.toString()
}
