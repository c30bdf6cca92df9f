import { describe, expect, it } from 'vitest'
import { axeViolations } from '../helpers/chat-page'
import { announced, answerFlow, consoleErrors, consolePage, useConsoleSuite } from './console-page'

/**
 * The console's Privacy view in Chromium, by keyboard: the retention setting, a visitor counted,
 * then erased after its confirmation, and the audit; axe clean at each stage.
 */
const context = useConsoleSuite(0)

describe("the console's privacy view", () => {
  it('sets a retention, counts and erases a visitor after a confirmation, by keyboard, axe clean', async () => {
    const { owner, flowId, origin } = context
    // Two visitors chose Team (the "visitor" found by the Plan variable here), one Starter.
    await answerFlow(origin, flowId, 'Team', '4')
    await answerFlow(origin, flowId, 'Team', '5')
    const starter = await answerFlow(origin, flowId, 'Starter', '3')
    const page = await consolePage(context)
    const errors = consoleErrors(page)
    await page.getByRole('button', { name: 'Privacy' }).press('Enter')
    await page.getByRole('heading', { name: "How long visitors' data is kept" }).waitFor()
    await page.getByLabel('Keep until deleted').waitFor()
    expect(await axeViolations(page)).toEqual([])

    // Retention by keyboard: the radio group's arrow key, the number, Enter.
    await page.getByLabel('Keep until deleted').focus()
    await page.keyboard.press('ArrowDown')
    expect(await page.getByLabel('Delete after a number of days').isChecked()).toBe(true)
    await page.getByLabel("Days after the visitor's last activity").fill('90')
    await page.getByLabel("Days after the visitor's last activity").press('Enter')
    await announced(page).filter({ hasText: '90 days after their last activity' }).waitFor()
    expect((await owner<{ retentionDays: number }>('GET', '/v1/privacy/retention')).json.retentionDays).toBe(90)

    // Count, then erase after the question (focus on Cancel; Shift+Tab, Enter confirms).
    await page.getByLabel('Variable').fill('Plan')
    await page.getByLabel('Value', { exact: true }).fill('team')
    await page.getByLabel('Value', { exact: true }).press('Enter')
    const counts = page.getByRole('table', { name: 'What erasing this visitor deletes' })
    await counts.waitFor()
    expect(await counts.getByRole('row', { name: /Results/ }).textContent()).toBe('Results (conversations)2')
    expect(await axeViolations(page)).toEqual([])
    await page.getByRole('button', { name: 'Erase their data' }).press('Enter')
    await page.getByRole('group', { name: /^Erase 2 results/ }).waitFor()
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel')
    expect(await axeViolations(page)).toEqual([])
    await page.keyboard.press('Shift+Tab')
    await page.keyboard.press('Enter')
    await announced(page)
      .filter({ hasText: /^Erased 2 results/ })
      .waitFor()
    await page.getByRole('cell', { name: 'variable Plan' }).waitFor()
    expect(await axeViolations(page)).toEqual([])

    const left = await owner<{ results: Array<{ id: string }> }>('GET', `/v1/flows/${flowId}/results`)
    expect(left.json.results.map((result) => result.id)).toEqual([starter])
    expect(errors()).toEqual([])
  })
})
