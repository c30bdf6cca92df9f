import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { signOut } from '../../src/admin/session'
import { newToken } from '../../src/service/ids'
import { surveyFlow } from '../service/helpers/results'
import { type ServiceProcess, startServiceProcess } from '../service/helpers/service-process'
import { axeViolations, renderConsole } from './helpers/console'

/**
 * A flow's Drop-off view against the service itself (its own process on loopback, the embedded
 * database): the funnel and the table show what the test's visitors did, a range without
 * conversations says so, and a range the service refuses shows its reason.
 */
const secret = newToken('secret')
let service: ServiceProcess
beforeAll(async () => {
  service = await startServiceProcess({ FLOW_SECRET_TOKEN: secret })
}, 60_000)
afterAll(() => service.stop())
beforeEach(() => {
  ;(window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${service.url}/admin`)
  document.documentElement.lang = 'en'
  document.title = 'Flow console'
  localStorage.clear()
})
afterEach(() => {
  cleanup()
  signOut()
})

const api = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${service.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return (await response.json()) as any
}

/** A visitor of the survey (name, e-mail, age, then the end) giving the first `answers` answers. */
async function visitor(flowId: string, answers: number) {
  const started = await api('POST', `/v1/flows/${flowId}/startChat`, {})
  for (const message of ['Ada', 'ada@example.org', '36'].slice(0, answers)) {
    await api('POST', `/v1/sessions/${started.sessionId}/continueChat`, { message })
  }
}

describe('the drop-off view', () => {
  it('shows the funnel and the table of what visitors did, an empty range, and a refused one', async () => {
    const flow = (await api('POST', '/v1/flows/import', { workspaceId: 'demo', flow: surveyFlow({ name: 'Drop-off survey' }) })).flow
    await api('POST', `/v1/flows/${flow.id}/publish`)
    const answered = [3, 3, 2, 1, 1, 0]
    for (const answers of answered) await visitor(flow.id, answers)
    const reached = (n: number) => answered.filter((answers) => answers >= n).length
    const leftAfter = (n: number) => answered.filter((answers) => answers === n).length

    renderConsole(secret)
    fireEvent.click(await screen.findByRole('button', { name: /^Drop-off survey/ }))
    const section = within((await screen.findByRole('heading', { name: 'Drop-off' })).closest('section')!)
    const table = await section.findByRole('table', { name: /Conversations that reached each group and block/ })
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole(/rowheader|cell/)
          .map((cell) => cell.textContent),
      )
    const pct = (n: number) => `${Math.round((n / answered.length) * 100)} %`
    expect(rows).toEqual([
      ['Started', '6', '100 %', String(leftAfter(0))],
      ['Group Ask name', String(reached(1)), pct(reached(1)), String(leftAfter(1))],
      ['Block b-name (text input)', String(reached(1)), pct(reached(1)), String(leftAfter(1))],
      ['Group Contact', String(reached(2)), pct(reached(2)), String(leftAfter(2))],
      ['Block b-email (email input)', String(reached(2)), pct(reached(2)), String(leftAfter(2))],
      ['Group Ask age', String(reached(3)), pct(reached(3)), '0'],
      ['Block b-age (number input)', String(reached(3)), pct(reached(3)), '0'],
      ['Group End', '0', '0 %', '0'],
      ['Completed', String(reached(3)), pct(reached(3)), ''],
    ])
    expect(section.getByRole('img').getAttribute('aria-label')).toBe(
      `Funnel: Started 6, Ask name ${reached(1)}, Contact ${reached(2)}, Ask age ${reached(3)}, End 0, Completed ${reached(3)}.`,
    )
    expect(await axeViolations()).toEqual([])

    // A range before anyone came.
    fireEvent.input(section.getByLabelText('From'), { target: { value: '2020-01-01' } })
    fireEvent.input(section.getByLabelText('To'), { target: { value: '2020-01-31' } })
    fireEvent.click(section.getByRole('button', { name: 'Show' }))
    await waitFor(() => expect(section.getByText(/No conversations started from 2020-01-01 to 2020-01-31/)).toBeTruthy())

    // A range the service refuses: its reason, as an alert.
    fireEvent.input(section.getByLabelText('From'), { target: { value: '2020-03-01' } })
    fireEvent.click(section.getByRole('button', { name: 'Show' }))
    expect((await section.findByRole('alert')).textContent).toMatch(/same day as from or later/)
    expect(await axeViolations()).toEqual([])
  }, 60_000)
})
