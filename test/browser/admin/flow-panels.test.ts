import { beforeEach, describe, expect, it } from 'vitest'
import { axeViolations, chat } from '../helpers/chat-page'
import {
  announced,
  apiOf,
  consoleErrors,
  consolePage,
  CONSOLE_FLOW_NAME as NAME,
  openFlow,
  readConsoleFlow,
  secretOf,
  useConsoleSuite,
  usePublishable,
} from './console-page'

/**
 * What the console shows beside the list, in Chromium: what to do while no flow is open (an empty
 * workspace's first flow), creating a flow from a template or a file, closing a flow's panel apart
 * from the flow's actions, and the workspace's publishable token remembered for every tab.
 */
const context = useConsoleSuite(2)

/** The text of what has focus. */
const focused = (page: Awaited<ReturnType<typeof context.suite.newPage>>) =>
  page.evaluate(() => document.activeElement?.textContent?.trim())

describe('the console beside its list of flows', () => {
  const { suite } = context
  let origin: string
  let owner: ReturnType<typeof apiOf>
  beforeEach(() => ({ origin, owner } = context))

  it("creates an empty workspace's first flow from a template, tries it, then creates one from a file, by keyboard", async () => {
    const secret = await secretOf(context, 'fresh-workspace')
    const page = await consolePage(context, { token: secret })
    const errors = consoleErrors(page)
    // Beside the empty list, what to do: not an empty half of the page.
    await page.getByRole('heading', { level: 2, name: 'Create your first flow' }).waitFor()
    expect(await page.locator('nav.flows').textContent()).toContain('No flows yet.')
    const template = page.getByRole('button', { name: 'Create “Customer feedback”' })
    await template.waitFor()
    expect(await axeViolations(page)).toEqual([])

    await template.press('Enter')
    await announced(page).filter({ hasText: 'Customer feedback is created from the Customer feedback template.' }).waitFor()
    await expect.poll(() => focused(page)).toBe('Customer feedback')
    await page.getByRole('button', { name: 'Publish', exact: true }).press('Enter')
    await announced(page).filter({ hasText: 'Customer feedback is published.' }).waitFor()
    await page.getByRole('button', { name: 'Create a publishable token' }).press('Enter')
    await page.getByRole('button', { name: 'Show the preview' }).press('Enter')
    await chat(page).host('How likely are you to recommend us to a friend or colleague?').waitFor()

    // "New flow" leaves the panel for the ways to create one, focus on their heading.
    await page.getByRole('button', { name: 'New flow' }).press('Enter')
    await expect.poll(() => focused(page)).toBe('Open a flow, or create one')
    const file = page.getByLabel('Choose a file')
    await file.setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"name": "Not a flow"}') })
    await expect(page.getByRole('alert').filter({ hasText: 'notes.json was not accepted' }).textContent()).resolves.toContain('flow.groups')
    await file.setInputFiles({ name: 'survey.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(readConsoleFlow())) })
    await announced(page)
      .filter({ hasText: `${NAME} is created from survey.json.` })
      .waitFor()
    await expect.poll(() => focused(page)).toBe(NAME)

    const listed = await apiOf(origin, secret)<{ flows: Array<{ name: string; publishedAt: string | null }> }>('GET', '/v1/flows')
    expect(listed.json.flows.map((flow) => [flow.name, flow.publishedAt !== null])).toEqual([
      ['Customer feedback', true],
      [NAME, false],
    ])
    expect(errors()).toEqual([])
  })

  it('closes a flow’s panel with a control apart from the flow’s actions, changing nothing of the flow', async () => {
    const page = await consolePage(context, { flow: NAME })
    const actions = page.getByRole('group', { name: 'Flow actions' })
    expect(await actions.getByRole('button').allTextContents()).toEqual(['Publish', 'Unpublish', 'Archive'])
    const close = page.getByRole('button', { name: 'Close panel' })
    expect(await actions.getByRole('button', { name: 'Close panel' }).count()).toBe(0)

    await close.press('Enter')
    await page.getByRole('heading', { level: 2, name: 'Open a flow, or create one' }).waitFor()
    await expect.poll(() => focused(page)).toMatch(new RegExp(`^${NAME}`))
    const flow = await owner<{ flows: Array<{ name: string; publishedAt: string | null; isClosed: boolean; isArchived: boolean }> }>(
      'GET',
      '/v1/flows',
    )
    expect(flow.json.flows.find((item) => item.name === NAME)).toMatchObject({
      isClosed: false,
      isArchived: false,
      publishedAt: expect.any(String),
    })
    expect(await axeViolations(page)).toEqual([])
  })

  it('remembers the workspace’s publishable token for previews and snippets in every tab, and forgets it once revoked', async () => {
    const made = await owner<{ token: { id: string }; value: string }>('POST', '/v1/tokens', { kind: 'publishable', label: 'remembered' })
    const first = await consolePage(context, { flow: NAME })
    await usePublishable(first, made.json.value)

    // Another tab asks for the secret token (it stays in its tab), but not for the publishable one.
    const second = await consolePage(context, { flow: NAME })
    const errors = consoleErrors(second)
    expect(await second.locator('.snippet pre').first().textContent()).toContain(`data-token="${made.json.value}"`)
    await second.getByRole('button', { name: 'Show the preview' }).click()
    await chat(second).hostBubbles.first().waitFor()
    const stored = JSON.stringify(await second.evaluate(() => ({ ...localStorage })))
    expect(stored).toContain(made.json.value)
    expect(stored).not.toContain(suite.service.secretToken)

    // Revoked elsewhere: the console forgets it the next time it reads the workspace's tokens.
    await owner('DELETE', `/v1/tokens/${made.json.token.id}`)
    await second.reload()
    await openFlow(second, NAME)
    await second.getByRole('textbox', { name: 'Publishable token' }).waitFor()
    expect(await second.getByText('The preview needs a publishable token').count()).toBe(1)
    expect(JSON.stringify(await second.evaluate(() => ({ ...localStorage })))).not.toContain(made.json.value)

    // A token of no workspace of this console's is refused when pasted.
    await second.getByRole('textbox', { name: 'Publishable token' }).fill(`fs_pk_${'x'.repeat(43)}`)
    await second.getByRole('button', { name: 'Use it' }).click()
    await second.getByRole('alert').filter({ hasText: 'not a publishable token of this workspace' }).waitFor()
    expect(errors()).toEqual([])
  })
})
