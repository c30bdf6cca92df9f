export interface PageOptions {
  flow: string
  /** The flow service: the widget's script comes from there too. */
  apiHost: string
  token: string
  /** Load the ES module build instead of the classic script. */
  module?: boolean
  /** Include the script twice, as careless host pages do. */
  twice?: boolean
  /** Add the host stylesheet that restyles the widget from outside and tries to leak in. */
  hostCss?: boolean
  /** The signed-in visitor, as the site's server writes them (`user-id`, `user-hash`); left out when undefined. */
  userId?: string
  userHash?: string
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

const userAttributes = ({ userId, userHash }: PageOptions) =>
  (userId === undefined ? '' : ` user-id="${escapeHtml(userId)}"`) + (userHash === undefined ? '' : ` user-hash="${escapeHtml(userHash)}"`)

/** A host page as a site owner would write it: the script, the element, some page text. */
export function testPage(options: PageOptions): string {
  const base = `${escapeHtml(options.apiHost)}/widget/v1`
  const script = options.module
    ? `<script type="module" src="${base}/flow-chat.mjs"></script>`
    : `<script src="${base}/flow-chat.js"></script>`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>flow-chat test page</title>
${options.hostCss ? '<link rel="stylesheet" href="/test/host.css">\n' : ''}${script}${options.twice ? `\n${script.replace('.js"', '.js?again"').replace('.mjs"', '.mjs?again"')}` : ''}
</head>
<body>
<main>
<h1>Host page</h1>
<p id="host-text">Text of the host page.</p>
<flow-chat flow="${escapeHtml(options.flow)}" api-host="${escapeHtml(options.apiHost)}" token="${escapeHtml(options.token)}"${userAttributes(options)}></flow-chat>
</main>
</body>
</html>`
}

/**
 * What a host page may do to the widget: set its documented custom properties and style its
 * parts. The `p` rule must not reach inside the shadow root.
 */
export const HOST_CSS = `
body { font-family: serif; }
#host-text { color: rgb(10, 20, 30); }
p { color: rgb(10, 20, 30) !important; }
flow-chat { --fc-guest-bubble-bg: rgb(1, 2, 3); height: 500px; }
flow-chat::part(host-bubble) { outline: 3px solid rgb(4, 5, 6); }
`

/**
 * The start-up floor's host page (helpers/floor-page.ts): the test page's shape and text, with
 * one small script from the service in place of the widget.
 */
export function floorPage(options: Pick<PageOptions, 'flow' | 'apiHost'>, scriptPath: string): string {
  const data = (name: string, value: string) => ` data-${name}="${escapeHtml(value)}"`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>flow-chat floor page</title>
<script src="${escapeHtml(options.apiHost)}${scriptPath}"${data('api', options.apiHost)}${data('flow', options.flow)}></script>
</head>
<body>
<main>
<h1>Host page</h1>
<p id="host-text">Text of the host page.</p>
</main>
</body>
</html>`
}
