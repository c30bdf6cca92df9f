import type { Page } from 'playwright-core'
import type { TestService } from '../helpers/test-service'

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** Attribute text from a record: values escaped, `true` as a bare attribute. */
export function attributes(values: Record<string, string | true>): string {
  return Object.entries(values)
    .map(([name, value]) => (value === true ? name : `${name}="${escapeHtml(value)}"`))
    .join(' ')
}

/**
 * Opens `/embed-test/{name}` on the host site (another site than the service) with `body` under
 * the strict test CSP (no inline script or style). `/embed-test/opener.js` wires `#opener` to open
 * the first popup, as a host page's own script would; `/embed-test/page.css` restyles the bubble's
 * launcher. `{script}` and `{module}` in `body` stand for the widget's classic and module builds'
 * addresses on the service.
 */
export async function openEmbedPage(page: Page, service: TestService, name: string, body: string): Promise<void> {
  const { host } = service
  host.serve('/embed-test/opener.js', {
    type: 'text/javascript',
    body: "document.getElementById('opener').addEventListener('click', () => document.querySelector('flow-chat-popup').open())",
  })
  host.serve('/embed-test/page.css', { type: 'text/css', body: 'flow-chat-bubble { --fc-launcher-bg: rgb(120, 20, 60); }' })
  const url = host.serve(`/embed-test/${name}`, {
    headers: { 'Content-Security-Policy': service.csp },
    body: `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>embed test: ${escapeHtml(name)}</title></head>
<body>
<main>
<h1>Host page</h1>
${body.replaceAll('{script}', service.script).replaceAll('{module}', service.script.replace(/\.js$/, '.mjs'))}
${'<p>Long host page text.</p>\n'.repeat(60)}
</main>
</body>
</html>`,
  })
  await page.goto(url)
}

/** Sessions the service created for a flow: a bubble or popup must create none before opening. */
export async function sessionCount(service: TestService, flowId: string): Promise<number> {
  const store = service.store()
  const rows = await store.database.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${store.tables.sessions} WHERE flow_id = $1`, [
    flowId,
  ])
  return rows[0]!.n
}

/** The deepest focused element's description, looking through shadow roots. */
export function deepFocus(page: Page) {
  return page.evaluate(() => {
    let active = document.activeElement
    const hosts: string[] = []
    while (active?.shadowRoot?.activeElement) {
      hosts.push(active.localName)
      active = active.shadowRoot.activeElement
    }
    return { hosts, tag: active?.localName ?? '', id: active?.id ?? '', label: active?.getAttribute('aria-label') ?? '' }
  })
}

/**
 * Waits until no CSS animation or transition runs (a bubble fading in has a transient colour
 * contrast), so axe-core judges what the visitor ends up seeing.
 */
export async function animationsSettled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'))
}
