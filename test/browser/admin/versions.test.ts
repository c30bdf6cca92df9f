import { describe, expect, it } from 'vitest'
import { axeViolations } from '../helpers/chat-page'
import { announced, consoleErrors, consolePage, CONSOLE_FLOW_NAME as NAME, readConsoleFlow, useConsoleSuite } from './console-page'

/**
 * The Versions panel of a flow in Chromium, by keyboard: the list of published versions, what
 * changed between two chosen ones, and a rollback after its confirmation.
 */
const context = useConsoleSuite(0)

describe("the console's versions panel", () => {
  it('lists versions, compares two, and rolls back after a confirmation, by keyboard, axe clean', async () => {
    const { owner, flowId } = context
    // Versions 2 and 3: the first bubble's words change each time.
    for (const words of ['Pick a plan, please.', 'Which plan fits your team?']) {
      const flow = readConsoleFlow()
      const bubble = flow.groups[0]!.blocks[0]!.content!.richText![0]!.children[0]!
      bubble.text = words
      expect((await owner('PUT', `/v1/flows/${flowId}`, { flow })).status).toBe(200)
      expect((await owner('POST', `/v1/flows/${flowId}/publish`, { note: `Words: ${words}` })).status).toBe(200)
    }
    const page = await consolePage(context, { flow: NAME })
    const errors = consoleErrors(page)
    const table = page.getByRole('table', { name: 'Published versions, newest first' })
    await table.waitFor()
    expect(await table.getByRole('rowheader').allTextContents()).toEqual(['3 (live)', '2', '1'])
    expect(await table.textContent()).toContain('Words: Which plan fits your team?')
    expect(await axeViolations(page)).toEqual([])

    // Compare 1 with 3, choosing both by keyboard.
    const from = page.getByRole('combobox', { name: 'From' })
    await from.focus()
    await from.selectOption('1')
    await page.getByRole('combobox', { name: 'to' }).selectOption('3')
    await page.getByRole('button', { name: 'Compare' }).press('Enter')
    const changes = page.getByRole('region', { name: 'Changes from version 1 to version 3' })
    await changes.waitFor()
    const text = await changes.textContent()
    expect(text).toContain('text changed from "Which plan suits you?" to "Which plan fits your team?"')
    expect(await changes.locator('ul.changes > li').count()).toBe(1)
    await announced(page).filter({ hasText: 'Version 1 to 3: 1 change.' }).waitFor()
    expect(await axeViolations(page)).toEqual([])

    // Roll back to 1: the question comes first, with focus on Cancel.
    await page.getByRole('button', { name: 'Roll back to version 1' }).press('Enter')
    const question = page.getByRole('group', { name: /Publish version 1 again as a new version\?/ })
    await question.waitFor()
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel')
    expect(await axeViolations(page)).toEqual([])
    await page.keyboard.press('Shift+Tab')
    await page.keyboard.press('Enter')
    await announced(page).filter({ hasText: 'Version 1 is published again as version 4.' }).waitFor()
    await expect.poll(() => table.getByRole('rowheader').allTextContents()).toEqual(['4 (live)', '3', '2', '1'])

    const listed = await owner<{ versions: Array<{ number: number; restoredFrom: number | null }> }>('GET', `/v1/flows/${flowId}/versions`)
    expect(listed.json.versions[0]).toMatchObject({ number: 4, restoredFrom: 1 })
    expect(errors()).toEqual([])
  })
})
