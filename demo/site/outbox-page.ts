import type { OutboxEmail } from '../../src/protocol/results'
import { html } from '../../src/service/http/html'
import { layout } from './pages'

/**
 * The e-mails flows sent while no SMTP server is configured (the outbox), newest first. The
 * page is rendered on the server with the secret token, for a browser that gave that token (see
 * outbox-access.ts); an HTML body is shown in a frame sandboxed to an opaque origin, with no script.
 */
export function outboxPage(emails: OutboxEmail[] | undefined): string {
  const list = (address: string[]) => address.join(', ')
  const email = (entry: OutboxEmail) => {
    const m = entry.message
    return html`<article class="email" aria-labelledby="email-${entry.id}">
<h2 id="email-${entry.id}">${m.subject || '(no subject)'}</h2>
<dl>
  <dt>Sent</dt><dd><time datetime="${entry.createdAt}">${entry.createdAt.replace('T', ' ').slice(0, 19)} UTC</time></dd>
  <dt>From</dt><dd>${m.from}</dd>
  <dt>To</dt><dd>${list(m.to)}</dd>
  ${m.cc.length > 0 ? html`<dt>Cc</dt><dd>${list(m.cc)}</dd>` : ''}
  ${m.bcc.length > 0 ? html`<dt>Bcc</dt><dd>${list(m.bcc)}</dd>` : ''}
  ${m.replyTo ? html`<dt>Reply-To</dt><dd>${m.replyTo}</dd>` : ''}
</dl>
${m.html ? html`<iframe class="email-html" sandbox="" title="Body of ${m.subject || 'the e-mail'}" srcdoc="${m.html}"></iframe>` : html`<pre>${m.text ?? ''}</pre>`}
</article>`
  }
  const body =
    emails === undefined
      ? html`<p>The outbox needs the demo's secret token; start the demo with <code>npm start</code>.</p>`
      : emails.length === 0
        ? html`<p>No e-mail yet. Run a flow with an e-mail block (for example <em>Lead Scoring</em>) to the end.</p>`
        : emails.map(email)
  return layout(
    'Outbox · Flow Chat demo',
    html`<header><p><a href="/">← All demo flows</a></p><h1>Outbox</h1>
<p>No SMTP server is configured (<code>SMTP_URL</code> or workspace credentials), so the e-mails flows send are kept here instead of being delivered. Latest 50.</p></header>
<main>${body}</main>`,
  )
}

/** Asks for the secret token before showing visitors' answers. */
export function outboxTokenPage(options: { wrongToken?: boolean } = {}): string {
  return layout(
    'Outbox · Flow Chat demo',
    html`<header><p><a href="/">← All demo flows</a></p><h1>Outbox</h1>
<p>The outbox shows what visitors answered, so it asks for the demo's secret token (<code>npm start</code> prints it as <em>Secret token</em>). It is sent once, in this form, never in the page's address; this browser then keeps a cookie that opens the outbox for 12 hours.</p></header>
<main>
${options.wrongToken ? html`<p class="note" role="alert">That is not the demo’s secret token.</p>` : ''}
<form method="post" action="/demo/outbox">
<label for="outbox-token">Secret token</label>
<input id="outbox-token" name="token" type="password" autocomplete="off" spellcheck="false" required>
<button type="submit">Open the outbox</button>
</form>
</main>`,
  )
}
