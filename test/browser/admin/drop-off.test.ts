import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { axeViolations } from '../helpers/chat-page'
import {
  announced,
  answerFlow,
  consoleErrors,
  consolePage,
  CONSOLE_FLOW_NAME as NAME,
  readConsoleFlow,
  useConsoleSuite,
} from './console-page'

/**
 * The Drop-off view of a flow in Chromium, by keyboard: the funnel drawn over the flow's groups,
 * the table of the same figures, a version chosen, and the CSV file; the figures are those the
 * test's own visitors make.
 */
const context = useConsoleSuite(0)

describe("the console's drop-off view", () => {
  it('draws the funnel and the table of what the visitors did, per version, and saves it as CSV, by keyboard, axe clean', async () => {
    const { origin, flowId, owner } = context
    // Version 1: three complete the flow (plan and score), two leave after the plan, one before anything.
    const visits: Array<[string, string | undefined]> = [
      ['Starter', '5'],
      ['Team', '4'],
      ['Starter', '3'],
      ['Team', undefined],
      ['Starter', undefined],
    ]
    for (const [plan, score] of visits) await answerFlow(origin, flowId, plan, score)
    const started = await fetch(`${origin}/v1/flows/${flowId}/startChat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    })
    expect(started.status).toBe(200)
    // Version 2: one more, completed.
    const flow = readConsoleFlow()
    flow.groups[0]!.blocks[0]!.content!.richText![0]!.children[0]!.text = 'Which plan, then?'
    expect((await owner('PUT', `/v1/flows/${flowId}`, { flow })).status).toBe(200)
    expect((await owner('POST', `/v1/flows/${flowId}/publish`)).status).toBe(200)
    await answerFlow(origin, flowId, 'Team', '2')

    const all = { started: visits.length + 2, completed: visits.filter(([, score]) => score).length + 1 }
    const page = await consolePage(context, { flow: NAME })
    const errors = consoleErrors(page)
    const table = page.getByRole('table', { name: /Conversations that reached each group and block/ })
    await table.waitFor()
    const rows = async () => (await table.getByRole('row').allTextContents()).slice(1).map((row) => row.replace(/\s+/g, ' ').trim())
    expect(await rows()).toEqual([
      `Started${all.started}100 %1`,
      `Group Plan${all.started - 1}${Math.round(((all.started - 1) / all.started) * 100)} %2`,
      `Block b2 (choice input)${all.started - 1}${Math.round(((all.started - 1) / all.started) * 100)} %2`,
      `Group Score${all.completed}${Math.round((all.completed / all.started) * 100)} %0`,
      `Block b4 (rating input)${all.completed}${Math.round((all.completed / all.started) * 100)} %0`,
      'Group End00 %0',
      `Completed${all.completed}${Math.round((all.completed / all.started) * 100)} %`,
    ])
    // The funnel: a bar per step, as long as its share of those started.
    const funnel = page.getByRole('img', { name: /^Funnel: / })
    expect(await funnel.getAttribute('aria-label')).toBe(
      `Funnel: Started ${all.started}, Plan ${all.started - 1}, Score ${all.completed}, End 0, Completed ${all.completed}.`,
    )
    const widths = await funnel.locator('rect.funnel-bar').evaluateAll((bars) => bars.map((bar) => Number(bar.getAttribute('width'))))
    expect(widths.map((width) => Math.round((width / widths[0]!) * all.started))).toEqual([
      all.started,
      all.started - 1,
      all.completed,
      0,
      all.completed,
    ])
    expect(await axeViolations(page)).toEqual([])

    // Version 1 only, chosen and shown by keyboard.
    const version = page.getByRole('combobox', { name: 'Version' })
    await version.focus()
    await version.selectOption('1')
    // The dates' fields take Tab inside them (day, month, year): the button is pressed where it is.
    await page.getByRole('button', { name: 'Show' }).press('Enter')
    await announced(page)
      .filter({ hasText: `${all.started - 1} started, ${all.completed - 1} completed.` })
      .waitFor()
    expect((await rows())[0]).toBe(`Started${all.started - 1}100 %1`)
    expect(await table.getByRole('caption').textContent()).toMatch(/version 1$/)
    expect(await axeViolations(page)).toEqual([])

    // The CSV file holds the same figures.
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).press('Enter')])
    expect(csv.suggestedFilename()).toMatch(/-drop-off-v1-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/)
    const lines = readFileSync((await csv.path())!, 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
    expect(lines[1]).toBe(`Started,,,,${all.started - 1},1`)
    expect(lines.at(-1)).toBe(`Completed,,,,${all.completed - 1},`)
    expect(errors()).toEqual([])
  })
})
