import { createHmac } from 'node:crypto'
import { fireEvent, screen, waitFor, within } from '@testing-library/preact'
import { describe, expect, it } from 'vitest'
import { newToken } from '../../src/service/ids'
import { surveyFlow } from '../service/helpers/results'
import { axeViolations, renderConsole, useServiceConsole } from './helpers/console'

/**
 * The console's privacy screen against the service itself (its own process on loopback, the
 * embedded database): the retention setting, a visitor counted, erased after confirming and
 * exported, and the audit, all by keyboard-reachable, named controls.
 */
const secret = newToken('secret')
const { service: running } = useServiceConsole(secret)

const api = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${running().url}${path}`, {
    method,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return (await response.json()) as any
}

/** A survey whose first answer is saved to "Email"; returns the result's id. */
async function visitor(flowId: string, email: string): Promise<string> {
  const started = await api('POST', `/v1/flows/${flowId}/startChat`, {})
  for (const message of [email, email, '36']) await api('POST', `/v1/sessions/${started.sessionId}/continueChat`, { message })
  return started.resultId
}

const openPrivacy = async () => {
  renderConsole(secret)
  fireEvent.click(await screen.findByRole('button', { name: 'Privacy' }))
  return screen.findByRole('heading', { name: "A visitor's data" })
}

describe('the privacy screen', () => {
  it('sets how long data is kept, counts a visitor, erases them after confirming, and lists it in the audit', async () => {
    const flow = (
      await api('POST', '/v1/flows/import', { workspaceId: 'demo', flow: surveyFlow({ variables: [{ id: 'v-name', name: 'Email' }] }) })
    ).flow
    await api('POST', `/v1/flows/${flow.id}/publish`)
    await visitor(flow.id, 'ada@example.org')
    await visitor(flow.id, 'ADA@example.org')
    const grace = await visitor(flow.id, 'grace@example.org')

    await openPrivacy()
    expect(screen.getByRole('button', { name: 'Privacy' }).getAttribute('aria-current')).toBe('page')

    // Retention: 30 days, saved and read back by the service.
    const retention = within(screen.getByRole('heading', { name: "How long visitors' data is kept" }).closest('section')!)
    expect(((await retention.findByLabelText('Keep until deleted')) as HTMLInputElement).checked).toBe(true)
    fireEvent.change(retention.getByLabelText('Delete after a number of days'), { target: { checked: true } })
    fireEvent.input(retention.getByLabelText("Days after the visitor's last activity"), { target: { value: '0' } })
    fireEvent.click(retention.getByRole('button', { name: 'Save' }))
    expect((await retention.findByRole('alert')).textContent).toMatch(/whole number of days/)
    fireEvent.input(retention.getByLabelText("Days after the visitor's last activity"), { target: { value: '30' } })
    fireEvent.click(retention.getByRole('button', { name: 'Save' }))
    await waitFor(async () => expect((await api('GET', '/v1/privacy/retention')).retentionDays).toBe(30))

    // Count first: the counts are the service's dry run.
    const section = within(screen.getByRole('heading', { name: "A visitor's data" }).closest('section')!)
    expect((section.getByLabelText('Variable') as HTMLInputElement).value).toBe('Email')
    fireEvent.input(section.getByLabelText('Value'), { target: { value: 'Ada@Example.org' } })
    fireEvent.click(section.getByRole('button', { name: 'Count their data' }))
    const counts = await section.findByRole('table', { name: 'What erasing this visitor deletes' })
    const dry = await api('POST', '/v1/privacy/erase', { variable: 'Email', value: 'ada@example.org', dryRun: true })
    expect(within(counts).getByRole('row', { name: /Results/ }).textContent).toBe(`Results (conversations)${dry.counts.results}`)
    expect(dry.counts.results).toBe(2)
    expect(await axeViolations()).toEqual([])

    // Erase asks first, with focus on Cancel; confirming erases and the audit shows it.
    fireEvent.click(section.getByRole('button', { name: 'Erase their data' }))
    expect(document.activeElement?.textContent).toBe('Cancel')
    fireEvent.click(section.getByRole('button', { name: 'Erase for good' }))
    const audit = within(screen.getByRole('heading', { name: 'Audit' }).closest('section')!)
    await waitFor(() => expect(audit.getByRole('cell', { name: 'erase' })).toBeTruthy())
    expect(audit.getByRole('cell', { name: 'variable Email' })).toBeTruthy()
    expect((await api('POST', '/v1/privacy/erase', { variable: 'Email', value: 'ada@example.org', dryRun: true })).counts.results).toBe(0)
    expect((await api('GET', `/v1/flows/${flow.id}/results/${grace}`)).result).toBeTruthy()

    // Editing the selector drops the count: no erasure without a count of the same visitor.
    fireEvent.change(section.getByLabelText('Find by'), { target: { value: 'result' } })
    expect(section.queryByRole('button', { name: 'Erase their data' })).toBeNull()
    fireEvent.input(section.getByLabelText('Result id'), { target: { value: grace } })
    fireEvent.click(section.getByRole('button', { name: 'Count their data' }))
    await section.findByRole('button', { name: 'Erase their data' })
    expect(await axeViolations()).toEqual([])
  }, 60_000)

  it('finds a signed-in visitor by their user id', async () => {
    const flow = (await api('POST', '/v1/flows/import', { workspaceId: 'demo', flow: surveyFlow({ name: 'Signed in' }) })).flow
    await api('POST', `/v1/flows/${flow.id}/publish`)
    const { secret: identity } = await api('POST', '/v1/identity-secrets')
    const user = { id: 'customer-1729', hash: createHmac('sha256', identity).update('customer-1729', 'utf8').digest('hex') }
    const started = await api('POST', `/v1/flows/${flow.id}/startChat`, { user })
    expect(started.identity.status).toBe('verified')

    await openPrivacy()
    const section = within(screen.getByRole('heading', { name: "A visitor's data" }).closest('section')!)
    fireEvent.change(section.getByLabelText('Find by'), { target: { value: 'user' } })
    fireEvent.click(section.getByRole('button', { name: 'Count their data' }))
    expect((await section.findByRole('alert')).textContent).toBe('Enter the user id.')
    fireEvent.input(section.getByLabelText('User id'), { target: { value: 'customer-1729' } })
    fireEvent.click(section.getByRole('button', { name: 'Count their data' }))
    const counts = await section.findByRole('table', { name: 'What erasing this visitor deletes' })
    expect(within(counts).getByRole('row', { name: /Results/ }).textContent).toBe('Results (conversations)1')
    expect(await axeViolations()).toEqual([])
  }, 60_000)

  it("downloads a visitor's data as JSON and names what is missing", async () => {
    await openPrivacy()
    const section = within(screen.getByRole('heading', { name: "A visitor's data" }).closest('section')!)
    fireEvent.click(section.getByRole('button', { name: 'Download their data (JSON)' }))
    expect((await section.findByRole('alert')).textContent).toBe('Enter the variable and the value to look for.')
    fireEvent.input(section.getByLabelText('Value'), { target: { value: 'nobody@example.org' } })
    const clicked: string[] = []
    const click = HTMLAnchorElement.prototype.click
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      clicked.push(this.download)
    }
    try {
      fireEvent.click(section.getByRole('button', { name: 'Download their data (JSON)' }))
      await waitFor(() => expect(clicked).toEqual(['visitor-data.json']))
    } finally {
      HTMLAnchorElement.prototype.click = click
    }
    const audit = within(screen.getByRole('heading', { name: 'Audit' }).closest('section')!)
    await waitFor(() => expect(audit.getAllByRole('cell', { name: 'access' }).length).toBeGreaterThan(0))
  }, 60_000)
})
