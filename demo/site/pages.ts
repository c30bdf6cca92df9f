import { type Html, html } from '../../src/service/http/html'
import type { SeededFlow } from './seed'
import { elementSnippet, scriptSnippet } from './snippets'

export interface PageContext {
  /** Origin of the service as the browser sees it (same origin as the pages). */
  apiHost: string
  publishableToken: string
}

/** The frame of every demo page; every script is an external file (the pages' CSP is strict). */
export function layout(title: string, body: Html, scripts: string[] = []): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="/demo/assets/host-avatar.svg" type="image/svg+xml">
<link rel="stylesheet" href="/demo/assets/demo.css">
<script src="/widget/v1/flow-chat.js" defer></script>
${scripts.map(
  (src) => html`<script src="${src}" defer></script>
`,
)}</head>
<body>
${body}
</body>
</html>
`.toString()
}

/** What a page of the demo shows, where it is, and the snippet that embeds it. */
interface DemoPage {
  title: string
  href: string
  shows: Html
  snippet?: string
}

function demoPages(flows: SeededFlow[], ctx: PageContext): DemoPage[] {
  const demo = flows.filter((flow) => flow.source === 'demo')
  const byFile = (file: string) => demo.find((flow) => flow.file === file)
  const pages: DemoPage[] = []
  const showcase = byFile('showcase.json') ?? demo[0]
  if (showcase) {
    const id = encodeURIComponent(showcase.publicId)
    pages.push(
      {
        title: 'Inline chat',
        href: `/demo/inline/${id}`,
        shows: html`The chat where the tag is, with every message and question the widget supports (the showcase flow).`,
        snippet: scriptSnippet(showcase, ctx, 'standard'),
      },
      {
        title: 'Bubble',
        href: `/demo/bubble/${id}`,
        shows: html`A launcher in the corner opens the chat in a window, with a preview message; buttons on the page command it and its events are listed.`,
        snippet: scriptSnippet(showcase, ctx, 'bubble'),
      },
      {
        title: 'Popup',
        href: `/demo/popup/${id}`,
        shows: html`The chat in a modal dialog that opens by itself after five seconds, or from a button.`,
        snippet: scriptSnippet(showcase, ctx, 'popup'),
      },
    )
    if (showcase.shareEnabled)
      pages.push({
        title: 'Share link',
        href: `/${id}`,
        shows: html`The full-page chat the service serves itself: nothing to embed, a link to send.`,
      })
  }
  const scripts = byFile('scripts.json')
  if (scripts) {
    pages.push({
      title: 'Flow scripts',
      href: `/demo/inline/${encodeURIComponent(scripts.publicId)}`,
      shows: html`Scripts that compute a price in the sandbox and send the page analytics events, listed under the chat.`,
      snippet: elementSnippet(scripts, ctx),
    })
  }
  const contact = byFile('contact-form.json')
  if (contact) {
    pages.push({
      title: 'Contact form and outbox',
      href: `/demo/inline/${encodeURIComponent(contact.publicId)}`,
      shows: html`A form that e-mails the visitor a copy; without a mail server the e-mail waits in the <a href="/demo/outbox">outbox</a> (it asks for the secret token <code>npm start</code> printed).`,
      snippet: scriptSnippet(contact, ctx, 'standard'),
    })
  }
  const ai = byFile('ai-assistant.json')
  if (ai) {
    pages.push({
      title: 'AI assistant',
      href: `/demo/inline/${encodeURIComponent(ai.publicId)}`,
      shows: html`An AI's answer streamed into the chat as Markdown.`,
      snippet: scriptSnippet(ai, ctx, 'standard'),
    })
  }
  if (flows.length > 0) {
    pages.push({
      title: 'Several chats on one page',
      href: '/demo/several',
      shows: html`Two inline chats, a bubble and a popup, each with its own flow, conversation and buttons.`,
    })
  }
  return pages
}

/** `aiConfigured`: the service has a key for the AI demo flow (OPENAI_API_KEY). */
export function indexPage(flows: SeededFlow[], ctx: PageContext, options: { aiConfigured?: boolean } = {}): string {
  const row = (flow: SeededFlow) => html`<li>
  <a href="/demo/inline/${encodeURIComponent(flow.publicId)}">${flow.name}</a>
  <a href="/demo/bubble/${encodeURIComponent(flow.publicId)}">bubble</a>
  <a href="/demo/popup/${encodeURIComponent(flow.publicId)}">popup</a>
  ${flow.shareEnabled ? html`<a href="/${encodeURIComponent(flow.publicId)}">full-page share link</a>` : ''}
  <span class="meta">${flow.file} · public id <code>${flow.publicId}</code></span>
</li>`
  const card = (page: DemoPage) => html`<li class="page">
<div><h3><a href="${page.href}">${page.title}</a></h3><p>${page.shows}</p></div>
${page.snippet ? html`<pre aria-label="Embed snippet for ${page.title}"><code>${page.snippet}</code></pre>` : ''}
</li>`
  return layout(
    'Flow Chat demo',
    html`<header><h1>Flow Chat demo</h1>
<p>The flow service, the widget and these pages, served together from one port. Each page embeds a published flow as a site owner would: the snippet beside it is all the page needs, under a strict Content Security Policy.</p></header>
<main>
<section aria-labelledby="demo-console"><h2 id="demo-console">Managing the flows</h2>
<p>The <a href="/admin">console</a> is where a site owner creates flows (from an exported file or a template), publishes and tries them, copies the snippets that embed them, and reads and exports what visitors answered. Sign in with the secret token <code>npm start</code> printed.</p></section>
<section aria-labelledby="demo-pages"><h2 id="demo-pages">What each page shows</h2>
<ul class="pages">${demoPages(flows, ctx).map(card)}</ul></section>
${aiNote(options.aiConfigured === true)}
<section aria-labelledby="demo-flows"><h2 id="demo-flows">Demo flows</h2>
<p>Every flow of <code>demo/flows/</code>, inline, as a bubble, as a popup, and as a share link when its settings allow it.</p>
<ul class="flows">${flows.filter((f) => f.source === 'demo').map(row)}</ul></section>
<section aria-labelledby="shared-flows"><h2 id="shared-flows">Real flow exports</h2>
<p>Flows exported from a flow builder, imported as they are.</p>
<ul class="flows">${flows.filter((f) => f.source === 'shared').map(row)}</ul></section>
</main>`,
  )
}

export function inlinePage(flow: SeededFlow, ctx: PageContext): string {
  return layout(
    `${flow.name} · inline embed`,
    html`<header><p><a href="/">← All demo flows</a></p><h1>${flow.name}</h1>
<p>The standard (inline) embed: a <code>&lt;flow-chat&gt;</code> element placed in the page.</p></header>
<main>
${localeSwitcher('#inline-chat')}
<flow-chat id="inline-chat" class="inline-chat" flow="${flow.publicId}" api-host="${ctx.apiHost}" token="${ctx.publishableToken}"></flow-chat>
<details><summary>Embed code</summary>
<pre><code>${elementSnippet(flow, ctx)}</code></pre></details>
<section aria-labelledby="host-events-title"><h2 id="host-events-title">Events from flow scripts</h2>
<p>What the flow's scripts sent this page with <code>emitHostEvent</code> (the <code>flowchat:script-event</code> event). It is all a script can hand the page.</p>
<ol id="host-events" aria-live="polite"></ol></section>
<script src="/demo/assets/demo-events.js" defer></script>
<script src="/demo/assets/demo-locale.js" defer></script>
</main>`,
  )
}

/** The languages the widget has words for, each named in itself. */
const LANGUAGES: Array<[tag: string, name: string]> = [
  ['en', 'English'],
  ['fr', 'Français'],
  ['de', 'Deutsch'],
  ['es', 'Español'],
  ['pt-BR', 'Português (Brasil)'],
  ['it', 'Italiano'],
  ['nl', 'Nederlands'],
  ['ar', 'العربية'],
  ['he', 'עברית'],
  ['ja', '日本語'],
]

/** Selects that set the chat's `lang` and `color-scheme` attributes (demo-locale.js). */
function localeSwitcher(target: string): Html {
  const select = (
    id: string,
    attribute: string,
    label: string,
    options: Array<[string, string]>,
  ) => html`<label for="${id}">${label}</label>
<select id="${id}" data-chat-target="${target}" data-chat-attribute="${attribute}">${options.map(([value, name]) => html`<option value="${value}">${name}</option>`)}</select>`
  return html`<form class="switcher" aria-label="Language and colours of the chat">
${select('chat-lang', 'lang', 'Language', [['', 'The page’s (English)'], ...LANGUAGES])}
${select('chat-scheme', 'color-scheme', 'Colours', [
  ['', 'Light'],
  ['dark', 'Dark'],
  ['auto', 'As the system'],
])}
</form>`
}

/** What the AI demo flow needs: it never shows a made-up answer in place of an AI's. */
function aiNote(configured: boolean): Html {
  return configured
    ? html`<p class="note">The AI assistant answers through the OpenAI-compatible API of <code>OPENAI_API_KEY</code>/<code>OPENAI_BASE_URL</code> with the model the flow names (<code>gpt-4o-mini</code>; edit <code>demo/flows/ai-assistant.json</code> for another), and a prompt kept short whatever visitors type.</p>`
    : html`<p class="note" role="note"><strong>The AI assistant has no AI to ask:</strong> set <code>OPENAI_API_KEY</code> (and <code>OPENAI_BASE_URL</code> for another OpenAI-compatible server, such as a local model server; add its address to <code>OUTBOUND_ALLOW_HOSTS</code> when it is on this machine or a private network), then run <code>npm start</code> again.</p>`
}
