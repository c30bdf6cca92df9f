import { useSignal } from '@preact/signals'
import type { FlowTestsResponse } from '../../protocol/flow-tests'
import { runFlowTests } from '../../protocol/flow-tests-api'
import type { FlowSummary } from '../../protocol/management'
import { api, messageOf } from '../api'
import { announce } from '../session'

/** Scenario files larger than this are refused before they are sent (the service's body limit is 2 MiB). */
const MAX_FILE_BYTES = 2 * 1024 * 1024

/**
 * Runs a scenarios file (docs/flow-authors/testing-flows.md) against the flow as it is now, through
 * POST /v1/flows/{id}/test: each scenario passed or failed in words, not colour, with the step,
 * what was expected and what was seen; the summary is announced.
 */
export function FlowTestsPanel(props: { flow: FlowSummary }) {
  const file = useSignal<File | null>(null)
  const report = useSignal<FlowTestsResponse | null>(null)
  const error = useSignal<string | null>(null)
  const busy = useSignal(false)

  const run = async (event: Event) => {
    event.preventDefault()
    const chosen = file.value
    report.value = null
    if (!chosen) {
      error.value = 'Choose a scenarios file first.'
      return
    }
    if (chosen.size > MAX_FILE_BYTES) {
      error.value = `${chosen.name} is larger than 2 MB.`
      return
    }
    let tests: unknown
    try {
      tests = JSON.parse(await chosen.text())
    } catch {
      error.value = `${chosen.name} is not JSON.`
      return
    }
    busy.value = true
    error.value = null
    announce('Running the tests…')
    try {
      const result = await runFlowTests(api, props.flow.id, tests)
      report.value = result
      const failed = result.scenarios.filter((scenario) => !scenario.passed).length
      announce(`${result.scenarios.length - failed} of ${result.scenarios.length} scenarios passed.`)
    } catch (caught) {
      error.value = `${chosen.name} could not be run: ${messageOf(caught)}`
      announce('The tests did not run.')
    } finally {
      busy.value = false
    }
  }

  return (
    <section class="section" aria-labelledby="flow-tests-title">
      <h3 id="flow-tests-title">Tests</h3>
      <form onSubmit={run}>
        <label>
          Scenarios file (JSON)
          <input
            type="file"
            accept="application/json,.json"
            aria-describedby="flow-tests-help"
            onChange={(event) => (file.value = event.currentTarget.files?.[0] ?? null)}
          />
        </label>
        <p class="help" id="flow-tests-help">
          Plays each scenario against the flow as it is now, with HTTP and AI answers stubbed and e-mails kept back.
        </p>
        <button type="submit" disabled={busy.value}>
          {busy.value ? 'Running…' : 'Run tests'}
        </button>
      </form>
      {error.value && (
        <p class="error" role="alert">
          {error.value}
        </p>
      )}
      {report.value && <Report report={report.value} />}
    </section>
  )
}

function Report({ report }: { report: FlowTestsResponse }) {
  const failed = report.scenarios.filter((scenario) => !scenario.passed).length
  return (
    <>
      <p>
        {report.scenarios.length - failed} of {report.scenarios.length} scenarios passed.
      </p>
      <ul class="flow-tests" aria-label="Scenarios">
        {report.scenarios.map((scenario) => (
          <li key={scenario.name}>
            <strong>{scenario.passed ? 'Passed' : 'Failed'}</strong>: {scenario.name}
            {scenario.failures.length > 0 && (
              <ul aria-label={`What failed in ${scenario.name}`}>
                {scenario.failures.map((failure, index) => (
                  <li key={index}>
                    {failure.step}: expected {failure.expected}; seen {failure.seen}
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </>
  )
}
