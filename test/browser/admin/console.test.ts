import { beforeEach, describe, expect, it } from 'vitest'
import { axeViolations, chat } from '../helpers/chat-page'
import {
  announced,
  apiOf,
  CONSOLE_FLOW,
  consoleErrors,
  CONSOLE_FLOW_NAME as NAME,
  openFlow,
  readConsoleFlow,
  secretOf,
  signIn,
  useConsoleSuite,
  usePublishable,
} from './console-page'

/**
 * The owner's console at /admin in Chromium, same-origin with the service by design (it calls the
 * API with the secret token the owner signs in with): sign-in and where the token is kept, the
 * flows, a new version, publishing, the preview, snippets, tokens, another workspace, a revoked
 * token, the keyboard alone, axe and a phone's screen. The results views: results.test.ts.
 */
const RESULTS = 3
const context = useConsoleSuite(RESULTS)

describe('the console at /admin', () => {
  const { suite } = context
  let origin: string
  let flowId: string
  let owner: ReturnType<typeof apiOf>
  beforeEach(() => ({ origin, flowId, owner } = context))

  it('is served with a strict policy, never framed, and keeps the token in this tab only', async () => {
    const response = await fetch(`${origin}/admin`)
    expect(response.status).toBe(200)
    const policy = response.headers.get('content-security-policy') ?? ''
    expect(policy).toMatch(/script-src 'self'(;|$)/)
    expect(policy).toMatch(/style-src 'self'(;|$)/)
    expect(policy).toContain("frame-ancestors 'none'")
    expect(policy).not.toContain('unsafe-inline')
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(await response.text()).not.toMatch(/<script>|<style|style=/)

    const page = await suite.newPage()
    const errors = consoleErrors(page)
    await page.goto(`${origin}/admin`)
    await page.getByLabel('Secret token').fill(suite.service.publishableToken)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByRole('alert').textContent()).resolves.toContain('needs a secret token')

    await page.getByLabel('Secret token').fill('')
    await signIn(page, origin, suite.service.secretToken)
    await expect(page.getByRole('button', { name: new RegExp(`^${NAME}`) }).textContent()).resolves.toContain(
      `${RESULTS} results (${RESULTS - 1} completed)`,
    )
    const stored = await page.evaluate(() => ({ session: { ...sessionStorage }, local: { ...localStorage }, cookie: document.cookie }))
    expect(Object.values(stored.session)).toContain(suite.service.secretToken)
    expect(JSON.stringify(stored.local)).not.toContain(suite.service.secretToken)
    expect(stored.cookie).toBe('')
    expect(await suite.chromium.context.cookies(origin)).toEqual([])

    // A reload keeps the owner signed in (same tab); a new tab does not know the token.
    await page.reload()
    await page.getByRole('heading', { name: 'Flows' }).waitFor()
    const other = await suite.newPage()
    await other.goto(`${origin}/admin`)
    await other.getByLabel('Secret token').waitFor()
    expect(errors()).toEqual([])
  })

  it('takes a new version from a file (button or drop), shows why a file is not a flow, publishes it and previews it in the widget', async () => {
    const page = await suite.newPage()
    const errors = consoleErrors(page)
    await signIn(page, origin, suite.service.secretToken)
    await openFlow(page, NAME)

    await page
      .getByLabel('Choose a file')
      .setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"name": "Not a flow"}') })
    const refusal = page.getByRole('alert').filter({ hasText: 'notes.json was not accepted' })
    await expect(refusal.textContent()).resolves.toContain('flow.groups')
    await page
      .getByLabel('Choose a file')
      .setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"groups": [') })
    await page.getByRole('alert').filter({ hasText: 'broken.json is not JSON' }).waitFor()

    const edited = readConsoleFlow()
    edited.groups[0]!.blocks[0]!.content!.richText![0]!.children[0]!.text = 'Which plan suits your team?'
    await page
      .getByLabel('Choose a file')
      .setInputFiles({ name: 'cross-site.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(edited)) })
    await expect(announced(page).filter({ hasText: 'is the new version' }).count()).resolves.toBeLessThanOrEqual(1)
    await announced(page).filter({ hasText: 'cross-site.json is the new version of Cross-site' }).waitFor()
    const stored = await owner<{ flow: { id: string; publicId: string; groups: typeof edited.groups } }>('GET', `/v1/flows/${flowId}`)
    expect(stored.json.flow.publicId).toBe(suite.service.flows[CONSOLE_FLOW]!.publicId)
    expect(stored.json.flow.groups[0]!.blocks[0]!.content!.richText![0]!.children[0]!.text).toBe('Which plan suits your team?')

    // Dropped on the zone: the same upload.
    edited.groups[0]!.blocks[0]!.content!.richText![0]!.children[0]!.text = 'Which plan suits you best?'
    const transfer = await page.evaluateHandle((text) => {
      const data = new DataTransfer()
      data.items.add(new File([text], 'dropped.json', { type: 'application/json' }))
      return data
    }, JSON.stringify(edited))
    await page.locator('.drop').dispatchEvent('drop', { dataTransfer: transfer })
    await announced(page).filter({ hasText: 'dropped.json is the new version' }).waitFor()

    await page.getByRole('button', { name: 'Publish', exact: true }).click()
    await announced(page).filter({ hasText: 'Cross-site is published.' }).waitFor()

    // The workspace has the operator's publishable token: the owner pastes it for the preview.
    await usePublishable(page, suite.service.publishableToken)
    await page.getByRole('button', { name: 'Show the preview' }).click()
    await chat(page).host('Which plan suits you best?').waitFor()
    // A Redirect block in the flow opens its page in a new tab, never this one (issue 32, finding 12).
    expect(await page.locator('flow-chat').getAttribute('redirects')).toBe('new-tab')
    expect(errors()).toEqual([])
  })

  it('copies each mode’s snippet with this service’s address and the publishable token', async () => {
    await suite.chromium.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin })
    const page = await suite.newPage()
    await signIn(page, origin, suite.service.secretToken)
    await openFlow(page, NAME)
    await usePublishable(page, suite.service.publishableToken)
    const publicId = suite.service.flows[CONSOLE_FLOW]!.publicId
    for (const mode of ['inline', 'bubble', 'popup']) {
      await page.getByRole('button', { name: `Copy ${mode} snippet` }).click()
      await announced(page)
        .filter({ hasText: `The ${mode} snippet is copied.` })
        .waitFor()
      const copied = await page.evaluate(() => navigator.clipboard.readText())
      expect(copied).toContain(`src="${origin}/widget/v1/flow-chat.js"`)
      expect(copied).toContain(`data-flow="${publicId}" data-api-host="${origin}" data-token="${suite.service.publishableToken}"`)
      if (mode !== 'inline') expect(copied).toContain(`data-mode="${mode}"`)
    }
    await page.getByRole('button', { name: 'Copy share link' }).click()
    await announced(page).filter({ hasText: 'share link snippet is copied' }).waitFor()
    const link = await page.evaluate(() => navigator.clipboard.readText())
    expect(link).toBe(`${origin}/${publicId}`)
    expect((await fetch(link)).status).toBe(200)
  })

  it("never shows one workspace's flows to another's token; offers to create a publishable token where there is none", async () => {
    const other = await secretOf(context, 'other-workspace')
    const theirs = apiOf(origin, other)
    const flow = readConsoleFlow()
    flow.name = 'Their survey'
    await theirs('POST', '/v1/flows/import', { workspaceId: 'other-workspace', flow })
    const page = await suite.newPage()
    await signIn(page, origin, other)
    await page.getByRole('button', { name: /^Their survey/ }).waitFor()
    expect(await page.locator('nav.flows').textContent()).not.toContain(NAME)
    expect(await page.getByText('Workspace other-workspace').count()).toBe(1)
    // The console asks the API by id with this token: another workspace's flow is not found.
    const foreign = await page.evaluate(
      async (id) =>
        (await fetch(`/v1/flows/${id}/results`, { headers: { Authorization: `Bearer ${sessionStorage.getItem('flow-console:token')}` } }))
          .status,
      flowId,
    )
    expect(foreign).toBe(404)

    await openFlow(page, 'Their survey')
    await page.getByText('this workspace has none yet').waitFor()
    await page.getByRole('button', { name: 'Create a publishable token' }).click()
    await announced(page).filter({ hasText: 'A publishable token was created' }).waitFor()
    const tokens = await theirs<{ tokens: Array<{ kind: string; label: string }> }>('GET', '/v1/tokens')
    expect(tokens.json.tokens.filter((token) => token.kind === 'publishable').map((token) => token.label)).toEqual(['console embeds'])
    const snippet = await page.locator('.snippet pre').first().textContent()
    expect(snippet).toMatch(/data-token="fs_pk_[\w-]{43}"/)
  })

  it('signs the owner out with a message when their token is revoked', async () => {
    const made = await owner<{ token: { id: string }; value: string }>('POST', '/v1/tokens', { kind: 'secret', label: 'short-lived' })
    const page = await suite.newPage()
    await signIn(page, origin, made.json.value)
    await owner('DELETE', `/v1/tokens/${made.json.token.id}`)
    await openFlow(page, NAME).catch(() => undefined)
    await page.getByRole('alert').filter({ hasText: 'no longer accepts this token' }).waitFor()
    await page.getByLabel('Secret token').waitFor()
    expect(await page.evaluate(() => sessionStorage.getItem('flow-console:token'))).toBeNull()
  })

  it('lists the tokens without their values, shows a new one once, and revokes one after confirming', async () => {
    const page = await suite.newPage()
    await signIn(page, origin, suite.service.secretToken)
    const tokens = page.getByRole('region', { name: 'Tokens' })
    await tokens.getByText('(this console)').waitFor()
    expect(await tokens.textContent()).not.toContain(suite.service.secretToken)
    await tokens.getByLabel('Kind').selectOption('secret')
    await tokens.getByLabel('Label').fill('Nightly export')
    await tokens.getByRole('button', { name: 'Create a token' }).click()
    await announced(page).filter({ hasText: 'A secret token was created.' }).waitFor()
    const value = (await tokens.locator('.made code').textContent())!
    expect((await apiOf(origin, value)('GET', '/v1/flows')).status).toBe(200)

    await tokens.getByRole('button', { name: 'Revoke the secret token Nightly export' }).click()
    await page.getByRole('button', { name: 'Revoke the token' }).click()
    await announced(page).filter({ hasText: 'The token Nightly export is revoked.' }).waitFor()
    expect((await apiOf(origin, value)('GET', '/v1/flows')).status).toBe(401)
    expect(await tokens.getByRole('button', { name: /Nightly export/ }).count()).toBe(0)
  })

  it('is used with the keyboard alone, focus always visible and never lost', async () => {
    const page = await suite.newPage()
    const focused = () =>
      page.evaluate(() => {
        const element = document.activeElement as HTMLElement
        // The file input is hidden in its label, which shows the focus (the button people see).
        const shown = element instanceof HTMLInputElement && element.type === 'file' ? element.closest('label')! : element
        const style = getComputedStyle(shown)
        return {
          text: shown.textContent?.trim() ?? '',
          tag: element.tagName,
          outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
        }
      })
    /** Presses Tab (or Shift+Tab) until focus is on an element whose text starts with `text` (at most 40 times). */
    const tabTo = async (text: string, key = 'Tab') => {
      for (let i = 0; i < 40; i++) {
        await page.keyboard.press(key)
        if ((await focused()).text.startsWith(text)) return focused()
      }
      throw new Error(`Tab never reached ${text}`)
    }
    await page.goto(`${origin}/admin`)
    expect((await focused()).tag).toBe('INPUT')
    await page.keyboard.type(suite.service.secretToken)
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: 'Flows' }).waitFor()
    expect((await focused()).text).toBe('Flow console')

    expect((await tabTo(NAME)).outline).toBe(true)
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { level: 2, name: NAME }).waitFor()
    expect(await focused()).toMatchObject({ text: NAME, tag: 'H2' })
    expect((await tabTo('Publish')).outline).toBe(true)
    expect((await tabTo('Choose a file')).outline).toBe(true)
    expect((await tabTo('Copy inline snippet')).outline).toBe(true)
    await tabTo('Close panel', 'Shift+Tab')
    await page.keyboard.press('Enter')
    await expect.poll(async () => (await focused()).text).toMatch(new RegExp(`^${NAME}`))
  })

  it('is axe clean signed out, signed in, with a flow, its columns and a result open', async () => {
    const page = await suite.newPage()
    await page.goto(`${origin}/admin`)
    expect(await axeViolations(page)).toEqual([])
    await signIn(page, origin, suite.service.secretToken)
    expect(await axeViolations(page)).toEqual([])
    await openFlow(page, NAME)
    await page.locator('table.results tbody tr').first().waitFor()
    await page.getByRole('button', { name: 'Columns' }).click()
    expect(await axeViolations(page)).toEqual([])
    await page.locator('table.results tbody tr', { hasText: 'Team' }).first().getByRole('button', { name: /^Open/ }).click()
    await page.getByRole('list', { name: 'Conversation' }).waitFor()
    expect(await axeViolations(page)).toEqual([])
  })

  it('works on a phone: nothing wider than the screen, every control reachable and axe clean', async () => {
    const page = await suite.newPage()
    await page.setViewportSize({ width: 375, height: 740 })
    await signIn(page, origin, suite.service.secretToken)
    await openFlow(page, NAME)
    await page.locator('table.results tbody tr').first().waitFor()
    // Named, so a failure says which element pushes the page sideways.
    const overflowing = await page.evaluate(() =>
      document.documentElement.scrollWidth <= window.innerWidth
        ? []
        : [...document.querySelectorAll('body *')]
            .filter((element) => element.getBoundingClientRect().right > window.innerWidth && element.closest('.scroll') === null)
            .map(
              (element) => `${element.tagName.toLowerCase()}.${element.className} ${Math.round(element.getBoundingClientRect().right)}px`,
            ),
    )
    expect(overflowing).toEqual([])
    for (const name of ['Publish', 'Copy inline snippet', 'Export CSV', 'Search']) {
      const box = await page.getByRole('button', { name, exact: true }).boundingBox()
      expect(box, name).not.toBeNull()
      expect(box!.x + box!.width, name).toBeLessThanOrEqual(375)
      expect(box!.height, name).toBeGreaterThanOrEqual(24)
    }
    expect(await axeViolations(page)).toEqual([])
  })
})
