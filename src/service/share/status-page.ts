import { html } from '../http/html'

export interface StatusPage {
  status: 403 | 404 | 410 | 429
  title: string
  message: string
}

/** What a visitor reads when a share link leads nowhere; nothing tells a flow exists or why not. */
export const NOT_FOUND_PAGE: StatusPage = {
  status: 404,
  title: 'Chat not found',
  message: 'This link does not lead to a chat. It may be mistyped, or its owner may have stopped sharing it.',
}

export const CLOSED_PAGE: StatusPage = {
  status: 410,
  title: 'This chat is closed',
  message: 'Its owner is no longer accepting new conversations here.',
}

export const ORIGIN_REFUSED_PAGE: StatusPage = {
  status: 403,
  title: 'This chat is not available here',
  message: "Its owner allows it only on their own websites. If this is your chat, add this site's address to its allowed origins.",
}

/** The workspace revoked its share pages' token (share-token.ts). */
export const TOKEN_REVOKED_PAGE: StatusPage = {
  status: 403,
  title: 'This chat is not available',
  message: 'Its owner has turned off its page for now.',
}

export function rateLimitedPage(retryAfterSeconds: number): StatusPage {
  const wait = retryAfterSeconds === 1 ? 'a second' : `${retryAfterSeconds} seconds`
  return { status: 429, title: 'Too many requests', message: `Please wait ${wait} and reload the page.` }
}

/** A plain, friendly HTML page: no script, not indexed, styled by the share stylesheet only. */
export function statusPageHtml(page: StatusPage, stylesheet: string): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${page.title}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${stylesheet}">
</head>
<body class="share-status">
<main>
<h1>${page.title}</h1>
<p>${page.message}</p>
</main>
</body>
</html>
`.toString()
}
