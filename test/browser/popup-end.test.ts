import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { codeBlocks } from '../docs/doc-blocks'
import { useBrowserSuite } from './helpers/browser-suite'
import { fillIn } from './helpers/doc-snippets'
import { TEST_FLOWS_DIR } from './helpers/test-service'

// The JavaScript API page's popup example, as an application bundles it (the package's module,
// here the service's copy of it), on a host site of its own: it closes the survey when the flow
// ends, and the visitor must see the flow's last message first.

const suite = useBrowserSuite([join(TEST_FLOWS_DIR, 'survey-end.json')])

/** The page's example that closes a popup on `flowchat:end`. */
function endExample(): string {
  const block = codeBlocks('docs/integrators/javascript-api.md').find(
    (candidate) => candidate.lang === 'ts' && candidate.code.includes('initPopup(') && candidate.code.includes('flowchat:end'),
  )
  if (!block) throw new Error('docs/integrators/javascript-api.md has no popup example closing on flowchat:end')
  return block.code
}

describe("the docs' popup that closes when the flow ends", () => {
  it('shows the last message before it closes', async () => {
    const { service } = suite
    const flow = service.flows['survey-end.json']!
    // As written, with the site owner's values, importing the package (the service's module build).
    const code = fillIn(endExample(), { service: service.origin, flow: flow.publicId, token: service.publishableToken }).replace(
      /from 'flow-chat-widget'/,
      `from '${service.script.replace(/\.js$/, '.mjs')}'`,
    )
    const script = service.host.serve('/popup-end/app.js', { type: 'text/javascript', body: code })
    const page = await suite.newPage()
    await page.goto(
      service.host.serve('/popup-end', {
        headers: { 'Content-Security-Policy': service.csp },
        body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<script type="module" src="${script}"></script></head><body><main><h1>A shop</h1></main></body></html>`,
      }),
    )
    const dialog = page.getByRole('dialog', { name: 'Quick survey' })
    await dialog.getByRole('button', { name: 'Yes, gladly' }).click({ timeout: 15_000 })
    const last = dialog.locator('[part~="host-bubble"]', { hasText: 'your answer helps us improve' })
    await last.waitFor({ state: 'visible' })
    // Seen in full, in the open window, the transcript scrolled to it.
    expect(await last.evaluate((bubble) => getComputedStyle(bubble).opacity)).not.toBe('0')
    await expect.poll(() => last.evaluate((bubble) => bubble.getBoundingClientRect().bottom <= innerHeight)).toBe(true)
    // Then the example closes the window by itself.
    await dialog.waitFor({ state: 'hidden', timeout: 15_000 })
    expect(await page.evaluate(() => (document.querySelector('flow-chat-popup') as HTMLElement & { isOpen: boolean }).isOpen)).toBe(false)
  })
})
