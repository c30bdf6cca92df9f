import { type Html, html } from '../../src/service/http/html'
import { type PageContext, layout as pageLayout } from './pages'
import type { SeededFlow } from './seed'
import { scriptSnippet } from './snippets'

const layout = (title: string, body: Html) => pageLayout(title, body, ['/demo/assets/embed-demo.js'])

const header = (title: string, intro: Html) => html`<header><p><a href="/">← All demo flows</a></p><h1>${title}</h1>${intro}</header>`

const code = (snippet: string) => html`<details><summary>Embed code</summary><pre><code>${snippet}</code></pre></details>`

const eventLog = html`<section aria-labelledby="embed-events-title"><h2 id="embed-events-title">Events</h2>
<p>What the elements told this page (<code>flowchat:*</code> events, listened to on <code>document</code>).</p>
<ol id="embed-events" aria-live="polite"></ol></section>`

const commandButton = (target: string, command: string, label: string) =>
  html`<button type="button" data-chat-target="${target}" data-chat-command="${command}">${label}</button>`

/** A page with the floating bubble in its corner and a preview message. */
export function bubblePage(flow: SeededFlow, ctx: PageContext): string {
  const snippet = scriptSnippet(flow, ctx, 'bubble')
  return layout(
    `${flow.name} · bubble embed`,
    html`${header(flow.name, html`<p>The bubble embed: a launcher in the corner that opens the chat in a window. The conversation starts only when the window is first opened.</p>`)}
<main>
<p>${commandButton('#demo-bubble', 'toggle', 'Toggle the chat')} ${commandButton('#demo-bubble', 'showPreviewMessage', 'Show the preview message')} ${commandButton('#demo-bubble', 'reset', 'Start over')}</p>
${code(snippet)}
${eventLog}
<flow-chat-bubble id="demo-bubble" flow="${flow.publicId}" api-host="${ctx.apiHost}" token="${ctx.publishableToken}" preview-message="Questions? Ask me." preview-delay="1500"></flow-chat-bubble>
</main>`,
  )
}

/** A page with a modal popup, opened by a button (and once by itself after a few seconds). */
export function popupPage(flow: SeededFlow, ctx: PageContext): string {
  const snippet = scriptSnippet(flow, ctx, 'popup')
  return layout(
    `${flow.name} · popup embed`,
    html`${header(flow.name, html`<p>The popup embed: the chat in a modal dialog. Escape or a click outside closes it; focus goes back where it was.</p>`)}
<main>
<p>${commandButton('#demo-popup', 'open', 'Open the chat')}</p>
${code(snippet)}
${eventLog}
<flow-chat-popup id="demo-popup" flow="${flow.publicId}" api-host="${ctx.apiHost}" token="${ctx.publishableToken}" auto-show-delay="5000"></flow-chat-popup>
</main>`,
  )
}

/**
 * Two inline chats, a bubble and a popup on one page: each has its own session and theme, and
 * each button commands one of them only.
 */
export function severalInstancesPage(flows: SeededFlow[], ctx: PageContext): string {
  const pick = (i: number) => flows[i % flows.length]!
  if (flows.length === 0) return layout('Several instances', html`<main><p>No flows are published.</p></main>`)
  // Each chat gets its own accessible name: four regions all called "Chat" could not be told apart.
  const attrs = (flow: SeededFlow) =>
    html`flow="${flow.publicId}" api-host="${ctx.apiHost}" token="${ctx.publishableToken}" label="${flow.name}"`
  return layout(
    'Several chats on one page',
    html`${header('Several chats on one page', html`<p>Two inline chats, a bubble and a popup, fully independent: a command to one never reaches another.</p>`)}
<main>
<h2>${pick(0).name}</h2>
<flow-chat id="first-inline" class="inline-chat" ${attrs(pick(0))}></flow-chat>
<p>${commandButton('#first-inline', 'reset', 'Restart the first chat')}</p>
<h2>${pick(1).name}</h2>
<flow-chat id="second-inline" class="inline-chat" ${attrs(pick(1))}></flow-chat>
<p>${commandButton('#several-bubble', 'toggle', `Toggle the bubble (${pick(2).name})`)} ${commandButton('#several-popup', 'open', `Open the popup (${pick(3).name})`)}</p>
${eventLog}
<flow-chat-bubble id="several-bubble" ${attrs(pick(2))}></flow-chat-bubble>
<flow-chat-popup id="several-popup" ${attrs(pick(3))}></flow-chat-popup>
</main>`,
  )
}
