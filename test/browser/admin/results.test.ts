import { createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { beforeEach, describe, expect, it } from 'vitest'
import { axeViolations, chat, trackErrors } from '../helpers/chat-page'
import {
  announced,
  answerFlow,
  type apiOf,
  CONSOLE_FLOW,
  consolePage,
  CONSOLE_FLOW_NAME as NAME,
  openFlow,
  readConsoleFlow,
  signIn,
  useConsoleSuite,
  usePublishable,
} from './console-page'

/**
 * The console's results views in Chromium: the table in the flow's resultsTablePreferences (saved
 * back and read again), paging through the cursor, search, a result as the visitor saw it,
 * exports fetched with the token, deletes after confirming, and the webhook's deliveries.
 */
/** More than a page of results (the console reads 25 at a time). */
const RESULTS = 27
const context = useConsoleSuite(RESULTS)

describe('the console’s results', () => {
  const { suite } = context
  let origin: string
  let flowId: string
  let owner: ReturnType<typeof apiOf>
  beforeEach(() => ({ origin, flowId, owner } = context))

  it('shows the columns of resultsTablePreferences, saves changes through the update, and pages through the cursor', async () => {
    const page = await suite.newPage()
    await signIn(page, origin, suite.service.secretToken)
    await openFlow(page, NAME)
    const rows = page.locator('table.results tbody tr')
    // The table fills in after the flow's heading shows.
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(25)
    const headers = () => page.locator('table.results thead th[data-column]').allTextContents()
    expect(await headers()).toEqual(['Plan', 'Score'])

    await page.getByRole('button', { name: 'Columns' }).click()
    await page.getByRole('button', { name: 'Move Score up' }).click()
    await page.getByLabel('Width of Plan in pixels').fill('300')
    await page.getByLabel('Width of Plan in pixels').blur()
    await page.getByRole('button', { name: 'Save column settings' }).click()
    await announced(page).filter({ hasText: 'Column settings saved.' }).waitFor()

    const saved = await owner<{ flow: { resultsTablePreferences: Record<string, unknown> } }>('GET', `/v1/flows/${flowId}`)
    expect(saved.json.flow.resultsTablePreferences).toMatchObject({ columnsOrder: ['b4', 'b2'], columnsWidth: { b2: 300 } })

    // Read again from the service after a reload: the order and width hold; then Plan is hidden.
    await page.reload()
    await openFlow(page, NAME)
    await rows.first().waitFor()
    expect(await headers()).toEqual(['Score', 'Plan'])
    const width = await page.locator('table.results thead th[data-column="b2"]').evaluate((cell) => cell.getBoundingClientRect().width)
    expect(Math.round(width)).toBe(300)
    await page.getByRole('button', { name: 'Columns' }).click()
    await page.getByRole('checkbox', { name: 'Show Plan' }).uncheck()
    await page.getByRole('button', { name: 'Save column settings' }).click()
    await announced(page).filter({ hasText: 'Column settings saved.' }).waitFor()
    await page.reload()
    await openFlow(page, NAME)
    await rows.first().waitFor()
    expect(await headers()).toEqual(['Score'])

    // The preview of the test before started a conversation too: count what the service has.
    const listed = await owner<{ flows: Array<{ id: string; results: { total: number } }> }>('GET', '/v1/flows')
    const total = listed.json.flows.find((flow) => flow.id === flowId)!.results.total
    expect(total).toBeGreaterThan(25)
    await page.getByRole('button', { name: 'Load more results' }).click()
    await announced(page)
      .filter({ hasText: `${total - 25} more results shown.` })
      .waitFor()
    await expect(rows.count()).resolves.toBe(total)
    await expect(page.getByRole('button', { name: 'Load more results' }).count()).resolves.toBe(0)
    await owner('PATCH', `/v1/flows/${flowId}`, { flow: { resultsTablePreferences: { columnsVisibility: { b2: true, b4: true } } } })
  })

  it('writes every date on one line while the columns beside it have room', async () => {
    const page = await consolePage(context, { flow: NAME, viewport: { width: 1280, height: 800 } })
    await page.locator('table.results tbody tr').first().waitFor()
    await page.getByRole('region', { name: 'Webhook deliveries' }).waitFor()
    // Results (one not completed, its mark under the date) and deliveries: each date a single line box.
    const dates = await page
      .locator('table time.date')
      .evaluateAll((elements) => elements.map((element) => element.getClientRects().length))
    expect(dates.length).toBeGreaterThan(25)
    expect(dates.every((lines) => lines === 1)).toBe(true)
    expect(await page.locator('table.results tbody tr', { hasText: 'not completed' }).count()).toBeGreaterThan(0)
  })

  it('finds results by an answer and by completion, and exports what it found', async () => {
    const page = await suite.newPage()
    await signIn(page, origin, suite.service.secretToken)
    await openFlow(page, NAME)
    const rows = page.locator('table.results tbody tr')
    await rows.first().waitFor()
    const search = page.getByRole('search', { name: 'Results' })
    await search.getByLabel('Answers containing').fill('starter')
    await search.getByLabel('Conversations').selectOption('true')
    await search.getByRole('button', { name: 'Search' }).click()
    await announced(page)
      .filter({ hasText: /results found/ })
      .waitFor()
    const found = await rows.allTextContents()
    expect(found.length).toBeGreaterThan(0)
    expect(found.every((row) => row.includes('Starter') && !row.includes('not completed'))).toBe(true)

    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()])
    const lines = readFileSync((await csv.path())!, 'utf8')
      .trim()
      .split('\r\n')
      .slice(1)
    expect(lines.length).toBeGreaterThanOrEqual(found.length)
    expect(lines.every((line) => line.includes('Starter') && line.includes(',yes,'))).toBe(true)
  })

  it('finds the results of one signed-in user by their user id', async () => {
    const made = await fetch(`${origin}/v1/identity-secrets`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${suite.service.secretToken}` },
    })
    const { secret } = (await made.json()) as { secret: string }
    const hash = createHmac('sha256', secret).update('customer-42').digest('hex')
    const started = await fetch(`${origin}/v1/flows/${flowId}/startChat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ user: { id: 'customer-42', hash } }),
    })
    expect(((await started.json()) as { identity: unknown }).identity).toEqual({ status: 'verified' })

    const page = await suite.newPage()
    await signIn(page, origin, suite.service.secretToken)
    await openFlow(page, NAME)
    const rows = page.locator('table.results tbody tr')
    await rows.first().waitFor()
    const search = page.getByRole('search', { name: 'Results' })
    await search.getByLabel('User id').fill('customer-42')
    await search.getByRole('button', { name: 'Search' }).click()
    await announced(page)
      .filter({ hasText: /result found|results found/ })
      .waitFor()
    expect(await rows.allTextContents()).toEqual([expect.stringContaining('customer-42')])
    expect(await axeViolations(page)).toEqual([])
  })

  it('shows a result as the visitor saw it, exports through the API with the token, and deletes after confirming', async () => {
    const resultId = await answerFlow(origin, flowId, 'Team', '5')
    const page = await suite.newPage()
    const errors = trackErrors(page)
    await signIn(page, origin, suite.service.secretToken)
    await openFlow(page, NAME)

    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()])
    expect(csv.suggestedFilename()).toBe(`${suite.service.flows[CONSOLE_FLOW]!.publicId}-results.csv`)
    const text = readFileSync((await csv.path())!, 'utf8')
    expect(text.startsWith('\uFEFFResult id,Created at,Updated at,Completed')).toBe(true)
    expect(text).toContain(resultId)
    const [jsonl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON Lines' }).click()])
    const lines = readFileSync((await jsonl.path())!, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string })
    expect(lines[0]!.id).toBe(resultId)

    await page.locator('table.results tbody tr').first().getByRole('button', { name: /^Open/ }).click()
    const conversation = page.getByRole('list', { name: 'Conversation' })
    await conversation.waitFor()
    // The questions as the published version words them (an earlier test may have changed them).
    const published = await owner<{ publishedFlow: ReturnType<typeof readConsoleFlow> }>('GET', `/v1/flows/${flowId}/publishedFlow`)
    const question = published.json.publishedFlow.groups[0]!.blocks[0]!.content!.richText![0]!.children[0]!.text
    expect(await conversation.locator('.bubble').allTextContents()).toEqual([
      `Flow: ${question}`,
      'Visitor: Team',
      'Flow: How likely are you to recommend us?',
      'Visitor: 5',
    ])
    await page.getByRole('button', { name: 'Delete this result' }).click()
    // Focus waits on Cancel: Enter there deletes nothing.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel')
    await page.keyboard.press('Enter')
    expect((await owner('GET', `/v1/flows/${flowId}/results/${resultId}`)).status).toBe(200)
    await page.getByRole('button', { name: 'Delete this result' }).click()
    await page.getByRole('button', { name: 'Delete the result' }).click()
    await announced(page).filter({ hasText: 'The result is deleted.' }).waitFor()
    expect((await owner('GET', `/v1/flows/${flowId}/results/${resultId}`)).status).toBe(404)
    expect(errors).toEqual([])
  })

  it('shows the label the visitor clicked, not the value the flow stores for it', async () => {
    // A copy of the console flow whose "Team" choice stores another value than its label.
    const flow = readConsoleFlow()
    flow.name = 'Valued plans'
    const choice = flow.groups[0]!.blocks[1] as unknown as { items: Array<{ content: string; value?: string }> }
    choice.items[1]!.value = 'plan_team'
    const imported = await owner<{ flow: { id: string } }>('POST', '/v1/flows/import', { workspaceId: 'demo', flow })
    expect((await owner('POST', `/v1/flows/${imported.json.flow.id}/publish`)).status).toBe(200)

    // The visitor clicks "Team" in the widget (the console's preview), then rates.
    const page = await suite.newPage()
    const errors = trackErrors(page)
    await signIn(page, origin, suite.service.secretToken)
    await openFlow(page, 'Valued plans')
    await usePublishable(page, suite.service.publishableToken)
    await page.getByRole('button', { name: 'Show the preview' }).click()
    await chat(page).choose('Team')
    await chat(page).host('How likely are you to recommend us?').waitFor()
    await chat(page).choose('5')
    await chat(page).host(/thank/i).waitFor()

    await page.reload()
    await openFlow(page, 'Valued plans')
    await page.locator('table.results tbody tr').first().getByRole('button', { name: /^Open/ }).click()
    const conversation = page.getByRole('list', { name: 'Conversation' })
    await conversation.waitFor()
    const bubbles = await conversation.locator('.bubble.guest').allTextContents()
    expect(bubbles).toEqual(['Visitor: Team', 'Visitor: 5'])
    expect(await axeViolations(page)).toEqual([])
    expect(errors).toEqual([])
  })

  it('lists the completion webhook’s deliveries of the flow', async () => {
    const resultId = await answerFlow(origin, flowId, 'Starter', '3')
    const page = await suite.newPage()
    await signIn(page, origin, suite.service.secretToken)
    await openFlow(page, NAME)
    const deliveries = page.getByRole('region', { name: 'Webhook deliveries' })
    await deliveries.getByText(resultId).waitFor()
    expect(await page.getByText('Completed results are sent to').textContent()).toContain('https://hooks.example.invalid/results')
  })
})
