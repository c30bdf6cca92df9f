import { Html, html } from '../http/html'
import { tagManagerScriptUrl } from './tag-manager'

/**
 * Every share page is served on the one service origin, so anything running in a page can read
 * what the widget remembers there for every workspace (session ids, result ids) and answer into
 * those sessions. The owner's head code and tag manager container are arbitrary script written by
 * one tenant, so they never run in the page: they run in a document of their own, framed by the
 * page and sandboxed twice, by the frame's `sandbox` attribute and by the `sandbox` directive of
 * the document's own policy (so it stays sandboxed when opened directly or framed by anyone).
 * Neither grants `allow-same-origin`: the document's origin is opaque, with no storage, cookies
 * or DOM access to the service's origin, and its requests there are cross-origin.
 */
export const HEAD_FRAME_SANDBOX = 'allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox'

/** Where a flow's head frame is served (`/share/v1/head/{publicId}`), under the share assets path. */
export const headFramePath = (assetsPath: string, publicId: string) => `${assetsPath}/head/${encodeURIComponent(publicId)}`

/**
 * The frame document's policy. Sandboxed to an opaque origin, the owner's code may load what it
 * likes from the web (analytics, tag manager tags): nothing it loads reaches another tenant.
 * Only the service's own pages may frame it.
 */
export const HEAD_FRAME_POLICY = [
  `sandbox ${HEAD_FRAME_SANDBOX}`,
  "default-src 'none'",
  "script-src 'unsafe-inline' 'unsafe-eval' https:",
  "style-src 'unsafe-inline' https:",
  'img-src https: data:',
  'font-src https: data:',
  'media-src https:',
  'frame-src https:',
  'connect-src https:',
  "base-uri 'none'",
  "frame-ancestors 'self'",
].join('; ')

export interface HeadFrameInput {
  /** A validated container id, or undefined for no tag manager. */
  tagManagerId?: string
  /** The owner's raw head markup, or undefined. */
  customHeadCode?: string
}

export const needsHeadFrame = (input: HeadFrameInput) => input.tagManagerId !== undefined || input.customHeadCode !== undefined

/** The frame document: the tag manager's data layer and container, then the owner's markup as written. */
export function headFrameHtml(input: HeadFrameInput): string {
  const tagManager = input.tagManagerId
    ? html`<script>window.dataLayer = window.dataLayer || []; window.dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' })</script>
<script src="${tagManagerScriptUrl(input.tagManagerId)}" async></script>
`
    : ''
  const headCode = input.customHeadCode ? new Html(`<!-- head code set by the flow's owner -->\n${input.customHeadCode}\n`) : ''
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="robots" content="noindex">
${tagManager}${headCode}</head>
<body></body>
</html>
`.toString()
}

/** The frame element the page carries: hidden, out of the tab order, without the page's referrer. */
export function headFrameElement(src: string): Html {
  return html`<iframe class="share-head-frame" src="${src}" sandbox="${HEAD_FRAME_SANDBOX}" referrerpolicy="no-referrer" hidden tabindex="-1" title="Site scripts"></iframe>`
}
