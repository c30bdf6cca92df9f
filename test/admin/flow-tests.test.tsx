import { fireEvent, screen, waitFor, within } from '@testing-library/preact'
import { describe, expect, it } from 'vitest'
import { newToken } from '../../src/service/ids'
import { supportFlow, supportScenario } from '../service/helpers/flow-tests'
import { axeViolations, renderConsole, useServiceConsole } from './helpers/console'

/**
 * The flow panel's tests, against the service itself (its own process on loopback): a scenarios
 * file chosen with a named file control, run by the service, each scenario passed or failed in
 * words with what failed, the summary announced.
 */
const secret = newToken('secret')
const { service: running } = useServiceConsole(secret)

const importFlow = async (flow: unknown) => {
  const response = await fetch(`${running().url}/v1/flows/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ workspaceId: 'demo', flow }),
  })
  return ((await response.json()) as { flow: { id: string; name: string } }).flow
}

const scenariosFile = (content: string) => new File([content], 'support-tests.json', { type: 'application/json' })

describe("the flow panel's tests", () => {
  it('runs a scenarios file and says which scenarios passed and what failed, by keyboard-reachable named controls', async () => {
    const flow = await importFlow(supportFlow())
    renderConsole(secret)
    fireEvent.click(await screen.findByRole('button', { name: new RegExp(flow.name) }))
    const tests = within((await screen.findByRole('heading', { name: 'Tests' })).closest('section')!)

    // Nothing chosen yet, then a file that is not JSON: said, nothing sent.
    fireEvent.click(tests.getByRole('button', { name: 'Run tests' }))
    expect((await tests.findByRole('alert')).textContent).toBe('Choose a scenarios file first.')
    const input = tests.getByLabelText('Scenarios file (JSON)')
    fireEvent.change(input, { target: { files: [scenariosFile('{"scenarios": [')] } })
    fireEvent.click(tests.getByRole('button', { name: 'Run tests' }))
    await waitFor(() => expect(tests.getByRole('alert').textContent).toBe('support-tests.json is not JSON.'))

    const toSales = {
      ...supportScenario,
      name: 'The e-mail goes to sales',
      answers: [{ answer: 'Hi', expect: { emails: [{ to: 'sales@example.com' }] } }],
    }
    fireEvent.change(input, { target: { files: [scenariosFile(JSON.stringify({ scenarios: [supportScenario, toSales] }))] } })
    fireEvent.click(tests.getByRole('button', { name: 'Run tests' }))
    await tests.findByText('1 of 2 scenarios passed.', undefined, { timeout: 30_000 })
    const scenarios = tests.getByRole('list', { name: 'Scenarios' })
    const items = within(scenarios)
      .getAllByRole('listitem')
      .filter((item) => item.parentElement === scenarios)
    expect(items.map((item) => item.firstChild?.textContent)).toEqual(['Passed', 'Failed'])
    expect(items[0]!.textContent).toBe('Passed: A question opens a ticket')
    const failures = within(items[1]!).getByRole('list', { name: 'What failed in The e-mail goes to sales' })
    expect(failures.textContent).toBe('answer 1: expected an e-mail to sales@example.com; seen to support@example.com: "Ticket T-1042"')
    expect(tests.queryByRole('alert')).toBeNull()
    // The console's live region said it.
    await waitFor(() => expect(screen.getByRole('status').textContent).toContain('1 of 2 scenarios passed.'))
    expect(await axeViolations()).toEqual([])

    // A file the service refuses is named with what it says.
    fireEvent.change(input, { target: { files: [scenariosFile('{"scenarios": []}')] } })
    fireEvent.click(tests.getByRole('button', { name: 'Run tests' }))
    expect((await tests.findByRole('alert')).textContent).toMatch(/^support-tests\.json could not be run: .*scenarios/)
  }, 90_000)
})
