import { useSignal } from '@preact/signals'
import { useEffect } from 'preact/hooks'
import type { FlowSummary, FlowVersion, VersionDiff } from '../../protocol/management'
import { diffVersions, listVersions, rollbackFlow } from '../../protocol/management-api'
import { api, messageOf } from '../api'
import { Confirm } from '../confirm'
import { When } from '../dates'
import { announce } from '../session'

const CHANGE_WORDS = { added: 'Added', removed: 'Removed', changed: 'Changed' } as const

/**
 * A flow's published versions: the list (who published each, when, why), what changed between two
 * chosen versions, and a rollback (after a confirmation) that publishes an old version again.
 */
export function VersionsPanel(props: { flow: FlowSummary; version: number; onRolledBack(): Promise<void> }) {
  const { flow } = props
  const versions = useSignal<FlowVersion[] | undefined>(undefined)
  const from = useSignal('')
  const to = useSignal('')
  const diff = useSignal<VersionDiff | null>(null)
  const confirming = useSignal<number | null>(null)
  const error = useSignal<string | null>(null)
  const busy = useSignal(false)

  const load = async () => {
    try {
      const list = await listVersions(api, flow.id)
      versions.value = list
      // By default, what the live version changed from the one before it.
      to.value = String(list[0]?.number ?? '')
      from.value = String(list[1]?.number ?? list[0]?.number ?? '')
      diff.value = null
      error.value = null
    } catch (caught) {
      error.value = messageOf(caught)
    }
  }
  useEffect(() => void load(), [flow.id, props.version])

  const compare = async (event: Event) => {
    event.preventDefault()
    busy.value = true
    try {
      const answer = await diffVersions(api, flow.id, Number(from.value), Number(to.value))
      diff.value = answer
      error.value = null
      const count = answer.changes.length
      announce(`Version ${from.value} to ${to.value}: ${count === 0 ? 'no changes' : `${count} change${count === 1 ? '' : 's'}`}.`)
    } catch (caught) {
      error.value = messageOf(caught)
    } finally {
      busy.value = false
    }
  }

  const rollback = async (number: number) => {
    confirming.value = null
    busy.value = true
    try {
      const made = await rollbackFlow(api, flow.id, number)
      await props.onRolledBack()
      await load()
      announce(`Version ${number} is published again as version ${made.number}.`)
    } catch (caught) {
      error.value = messageOf(caught)
    } finally {
      busy.value = false
    }
  }

  const list = versions.value ?? []
  const choice = (label: string, value: typeof from) => (
    <label>
      {label}{' '}
      <select value={value.value} onChange={(event) => (value.value = (event.target as HTMLSelectElement).value)}>
        {list.map((version) => (
          <option key={version.number} value={String(version.number)}>
            Version {version.number}
          </option>
        ))}
      </select>
    </label>
  )

  return (
    <section class="section" aria-labelledby="versions-title">
      <h3 id="versions-title">Versions</h3>
      {versions.value && list.length === 0 && <p class="help">No versions yet: each publish keeps one.</p>}
      {error.value && (
        <p class="error" role="alert">
          {error.value}
        </p>
      )}
      {list.length > 0 && (
        // biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a scrollable region takes keyboard focus so that keyboard users can scroll it (WCAG 2.1.1)
        <div class="scroll" tabIndex={0} role="region" aria-label="Published versions">
          <table>
            <caption>Published versions, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Published</th>
                <th scope="col">By</th>
                <th scope="col">Note</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((version) => (
                <tr key={version.number}>
                  <th scope="row">
                    {version.number}
                    {version.isLive && ' (live)'}
                  </th>
                  <td>
                    <When iso={version.publishedAt} />
                  </td>
                  <td>{version.publishedBy ?? 'unknown'}</td>
                  <td>
                    {version.note}
                    {version.restoredFrom !== null && !version.note?.includes(`version ${version.restoredFrom}`)
                      ? ` (version ${version.restoredFrom} again)`
                      : ''}
                  </td>
                  <td>
                    {!version.isLive && (
                      <button type="button" disabled={busy.value} onClick={() => (confirming.value = version.number)}>
                        Roll back to version {version.number}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {confirming.value !== null && (
        <Confirm
          question={`Publish version ${confirming.value} again as a new version? Visitors starting from now get it; conversations under way finish on their version. The flow's content becomes version ${confirming.value}'s: edits not yet published are replaced.`}
          action={`Roll back to version ${confirming.value}`}
          onConfirm={() => rollback(confirming.value as number)}
          onCancel={() => (confirming.value = null)}
        />
      )}
      {list.length > 1 && (
        <form class="actions" onSubmit={compare} aria-label="Compare versions">
          {choice('From', from)}
          {choice('to', to)}
          <button type="submit" disabled={busy.value}>
            Compare
          </button>
        </form>
      )}
      {diff.value && <DiffList diff={diff.value} />}
    </section>
  )
}

/** The changes between two versions, each thing changed with what changed in it. */
function DiffList(props: { diff: VersionDiff }) {
  const { diff } = props
  const title = `Changes from version ${diff.from.number} to version ${diff.to.number}`
  return (
    <section aria-label={title}>
      <h4>{title}</h4>
      {diff.changes.length === 0 ? (
        <p>No changes: visitors get the same flow from both.</p>
      ) : (
        <ul class="changes">
          {diff.changes.map((change) => (
            <li key={`${change.area}:${change.id ?? ''}:${change.change}`} data-change={change.change}>
              <strong>{CHANGE_WORDS[change.change]}:</strong> {change.summary.replace(/ (added|removed)$/, '')}
              {change.change === 'changed' && change.details.length > 0 && (
                <ul>
                  {change.details.map((detail) => (
                    <li key={detail}>{detail}</li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
