import { useSignal } from '@preact/signals'
import { useEffect } from 'preact/hooks'
import { type AnalyticsQueryInput, addDays, DEFAULT_ANALYTICS_DAYS, type FlowAnalytics } from '../../protocol/analytics'
import { exportFlowAnalytics, getFlowAnalytics } from '../../protocol/analytics-api'
import type { FlowSummary, FlowVersion } from '../../protocol/management'
import { listVersions } from '../../protocol/management-api'
import { api, messageOf } from '../api'
import { download } from '../download'
import { announce } from '../session'
import { DropOffFunnel, groupLabel, shareOf } from './drop-off-funnel'

/**
 * Where a flow's visitors drop off: a version (or all) and a date range chosen, the figures the
 * service counts drawn as a funnel over the flow's groups, the same figures as a table (its blocks
 * too), and as a CSV file.
 */
export function DropOff(props: { flow: FlowSummary; version: number }) {
  const { flow } = props
  const today = new Date().toISOString().slice(0, 10)
  const versions = useSignal<FlowVersion[]>([])
  const chosen = useSignal('')
  const from = useSignal(addDays(today, 1 - DEFAULT_ANALYTICS_DAYS))
  const to = useSignal(today)
  const figures = useSignal<FlowAnalytics | null>(null)
  const error = useSignal<string | null>(null)
  const busy = useSignal(false)

  const query = (): AnalyticsQueryInput => ({ from: from.value, to: to.value, ...(chosen.value ? { version: chosen.value } : {}) })

  const load = async (say: boolean) => {
    busy.value = true
    try {
      const answer = await getFlowAnalytics(api, flow.id, query())
      figures.value = answer
      error.value = null
      if (say) announce(`Drop-off from ${answer.from} to ${answer.to}: ${answer.started} started, ${answer.completed} completed.`)
    } catch (caught) {
      error.value = messageOf(caught)
    } finally {
      busy.value = false
    }
  }
  useEffect(() => {
    listVersions(api, flow.id).then(
      (list) => (versions.value = list),
      () => (versions.value = []),
    )
    void load(false)
  }, [flow.id, props.version])

  const save = async () => {
    busy.value = true
    try {
      const name = await download(await exportFlowAnalytics(api, flow.id, query()), `${flow.publicId}-drop-off.csv`)
      error.value = null
      announce(`Saved ${name}.`)
    } catch (caught) {
      error.value = messageOf(caught)
    } finally {
      busy.value = false
    }
  }

  const shown = figures.value
  return (
    <section class="section drop-off" aria-labelledby="drop-off-title">
      <h3 id="drop-off-title">Drop-off</h3>
      <form
        class="actions"
        aria-label="Drop-off range"
        onSubmit={(event) => {
          event.preventDefault()
          void load(true)
        }}
      >
        <label>
          Version{' '}
          <select value={chosen.value} onChange={(event) => (chosen.value = (event.target as HTMLSelectElement).value)}>
            <option value="">All versions</option>
            {versions.value.map((version) => (
              <option key={version.number} value={String(version.number)}>
                Version {version.number}
                {version.isLive ? ' (live)' : ''}
              </option>
            ))}
          </select>
        </label>
        <label>
          From{' '}
          <input type="date" required value={from.value} onInput={(event) => (from.value = (event.target as HTMLInputElement).value)} />
        </label>
        <label>
          To <input type="date" required value={to.value} onInput={(event) => (to.value = (event.target as HTMLInputElement).value)} />
        </label>
        <button type="submit" disabled={busy.value}>
          Show
        </button>
        <button type="button" disabled={busy.value} onClick={save}>
          Download CSV
        </button>
      </form>
      {error.value && (
        <p class="error" role="alert">
          {error.value}
        </p>
      )}
      {shown && <Figures figures={shown} />}
    </section>
  )
}

function Figures(props: { figures: FlowAnalytics }) {
  const { figures } = props
  const which = figures.version === null ? 'all versions' : `version ${figures.version}`
  if (figures.started === 0)
    return (
      <p class="help">
        No conversations started from {figures.from} to {figures.to} ({which}).
      </p>
    )
  return (
    <>
      <dl class="drop-off-summary">
        <dt>Started</dt>
        <dd>{figures.started}</dd>
        <dt>Completed</dt>
        <dd>
          {figures.completed} ({shareOf(figures.completed, figures.started)})
        </dd>
        <dt>Median time to finish</dt>
        <dd>{duration(figures.medianSecondsToComplete)}</dd>
        <dt>Left before answering anything</dt>
        <dd>{figures.stoppedBeforeAnswering}</dd>
      </dl>
      <DropOffFunnel figures={figures} />
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a scrollable region takes keyboard focus so that keyboard users can scroll it (WCAG 2.1.1) */}
      <div class="scroll" tabIndex={0} role="region" aria-label="Drop-off figures">
        <table>
          <caption>
            Conversations that reached each group and block, {figures.from} to {figures.to}, {which}
          </caption>
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col">Conversations</th>
              <th scope="col">Of those started</th>
              <th scope="col">Left after it</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">Started</th>
              <td>{figures.started}</td>
              <td>{shareOf(figures.started, figures.started)}</td>
              <td>{figures.stoppedBeforeAnswering}</td>
            </tr>
            {figures.groups.map((group) => [
              <tr key={group.id} class="drop-off-group">
                <th scope="row">Group {groupLabel(group)}</th>
                <td>{group.reached}</td>
                <td>{shareOf(group.reached, figures.started)}</td>
                <td>{group.stoppedAfter}</td>
              </tr>,
              ...group.blocks.map((block) => (
                <tr key={`${group.id}:${block.id}`} class="drop-off-block">
                  <th scope="row">
                    Block {block.id} ({block.type ?? 'not in this version'})
                  </th>
                  <td>{block.reached}</td>
                  <td>{shareOf(block.reached, figures.started)}</td>
                  <td>{block.stoppedAfter}</td>
                </tr>
              )),
            ])}
            <tr>
              <th scope="row">Completed</th>
              <td>{figures.completed}</td>
              <td>{shareOf(figures.completed, figures.started)}</td>
              <td />
            </tr>
          </tbody>
        </table>
      </div>
    </>
  )
}

/** Seconds as the owner reads them: 45 s, 3 min 20 s, 2 h 5 min. */
function duration(seconds: number | null): string {
  if (seconds === null) return 'none completed'
  const s = Math.round(seconds)
  if (s < 60) return `${s} s`
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`
  return `${Math.floor(s / 3600)} h${Math.round((s % 3600) / 60) ? ` ${Math.round((s % 3600) / 60)} min` : ''}`
}
