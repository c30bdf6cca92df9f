import { useSignal } from '@preact/signals'
import { useEffect, useRef } from 'preact/hooks'
import type { FlowSummary } from '../../protocol/management'
import { deleteResults, exportResults, listResults, type ResultsFilters } from '../../protocol/management-api'
import type { ResultRow, ResultsPage } from '../../protocol/results'
import { api, messageOf } from '../api'
import { Confirm } from '../confirm'
import { dateTime, When } from '../dates'
import { download } from '../download'
import { announce } from '../session'
import { ColumnSettings } from './column-settings'
import { cellText } from './columns'
import { ResultDetail } from './result-detail'

const PAGE_SIZE = 25

interface Filters {
  q: string
  completed: '' | 'true' | 'false'
  userId: string
}

/** The filters as the API names them (a cursor is bound to the filters of its page). */
const apiFilters = (filters: Filters): ResultsFilters => ({
  q: filters.q.trim() || undefined,
  completed: filters.completed ? filters.completed === 'true' : undefined,
  userId: filters.userId.trim() || undefined,
})

/**
 * The flow's results, newest first, a page at a time through the API's cursor ("Load more"), in
 * the columns of `resultsTablePreferences`; a result's detail, exports and deletes.
 */
export function ResultsPanel(props: { flow: FlowSummary; version: number }) {
  const { flow } = props
  const page = useSignal<ResultsPage | null>(null)
  const error = useSignal<string | null>(null)
  const opened = useSignal<string | null>(null)
  const editing = useSignal(false)
  const confirmingAll = useSignal(false)
  const filters = useSignal<Filters>({ q: '', completed: '', userId: '' })
  const draft = useSignal<Filters>({ q: '', completed: '', userId: '' })
  const heading = useRef<HTMLHeadingElement>(null)

  const fail = (caught: unknown) => (error.value = messageOf(caught))
  const load = async (cursor?: string) => {
    try {
      const next = await listResults(api, flow.id, apiFilters(filters.value), { limit: PAGE_SIZE, cursor })
      page.value = cursor && page.value ? { ...next, results: [...page.value.results, ...next.results] } : next
      error.value = null
      if (cursor) announce(`${next.results.length} more results shown.`)
      return next
    } catch (caught) {
      fail(caught)
    }
  }
  useEffect(() => void load(), [flow.id, props.version])

  const exportAs = async (format: 'csv' | 'jsonl') => {
    try {
      const name = await download(
        await exportResults(api, flow.id, format, apiFilters(filters.value)),
        `${flow.publicId}-results.${format}`,
      )
      announce(`${name} is downloaded.`)
    } catch (caught) {
      fail(caught)
    }
  }
  const deleteAll = async () => {
    confirmingAll.value = false
    try {
      const deleted = await deleteResults(api, flow.id, { all: true })
      announce(`${deleted} results deleted.`)
      await load()
      heading.current?.focus()
    } catch (caught) {
      fail(caught)
    }
  }
  const search = async (event: Event) => {
    event.preventDefault()
    filters.value = { ...draft.value }
    const found = await load()
    if (found) announce(`${found.results.length}${found.nextCursor ? ' or more' : ''} results found.`)
  }
  const backToList = () => {
    opened.value = null
    requestAnimationFrame(() => heading.current?.focus())
  }
  const removed = (id: string) => {
    backToList()
    if (page.value) page.value = { ...page.value, results: page.value.results.filter((row) => row.id !== id) }
  }

  const columns = page.value?.columns.filter((column) => !column.hidden) ?? []
  return (
    <section class="section" aria-labelledby="results-title">
      <h3 id="results-title" tabIndex={-1} ref={heading}>
        Results
      </h3>
      {error.value && (
        <p class="error" role="alert">
          {error.value}
        </p>
      )}
      {opened.value ? (
        <ResultDetail flowId={flow.id} resultId={opened.value} onClose={backToList} onDeleted={removed} />
      ) : !page.value ? (
        <p class="help">Loading results…</p>
      ) : (
        <>
          {/* biome-ignore lint/a11y/useSemanticElements: <search> is too new for every browser the console supports; the role says the same */}
          <form class="inline-form filters" role="search" aria-label="Results" onSubmit={search}>
            <label for="results-q">Answers containing</label>
            <input
              id="results-q"
              type="search"
              maxLength={200}
              value={draft.value.q}
              onInput={(event) => (draft.value = { ...draft.value, q: event.currentTarget.value })}
            />
            <label for="results-user">User id</label>
            <input
              id="results-user"
              type="search"
              maxLength={256}
              value={draft.value.userId}
              onInput={(event) => (draft.value = { ...draft.value, userId: event.currentTarget.value })}
            />
            <label for="results-completed">Conversations</label>
            <select
              id="results-completed"
              value={draft.value.completed}
              onChange={(event) => (draft.value = { ...draft.value, completed: event.currentTarget.value as Filters['completed'] })}
            >
              <option value="">all</option>
              <option value="true">completed</option>
              <option value="false">not completed</option>
            </select>
            <button type="submit">Search</button>
          </form>
          <div class="actions">
            <button type="button" onClick={() => exportAs('csv')}>
              Export CSV
            </button>
            <button type="button" onClick={() => exportAs('jsonl')}>
              Export JSON Lines
            </button>
            <button type="button" aria-expanded={editing.value} onClick={() => (editing.value = !editing.value)}>
              Columns
            </button>
            {page.value.results.length > 0 && (
              <button type="button" class="danger" onClick={() => (confirmingAll.value = true)}>
                Delete all results
              </button>
            )}
            {(filters.value.q || filters.value.completed || filters.value.userId) && (
              <span class="help">Exports follow the search; deleting all does not.</span>
            )}
          </div>
          {confirmingAll.value && (
            <Confirm
              question={`Delete every result of ${flow.name}, with their answers and files, for good?`}
              action="Delete all results"
              onConfirm={deleteAll}
              onCancel={() => (confirmingAll.value = false)}
            />
          )}
          {editing.value && (
            <ColumnSettings
              key={page.value.columns.map((column) => column.id).join()}
              flowId={flow.id}
              columns={page.value.columns}
              onSaved={() => {
                editing.value = false
                void load()
              }}
            />
          )}
          {page.value.results.length === 0 ? (
            <p>
              {filters.value.q || filters.value.completed || filters.value.userId
                ? 'No result matches this search.'
                : flow.publishedAt
                  ? 'No results yet: they appear here as visitors answer (try the flow in the preview).'
                  : 'No results yet: publish the flow, then visitors’ answers appear here.'}
            </p>
          ) : (
            // biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a scrollable region takes keyboard focus so that keyboard users can scroll it (WCAG 2.1.1)
            <div class="scroll" tabIndex={0} role="region" aria-label="Results table">
              <table class="results">
                <colgroup>
                  <col class="open-column" />
                  <col class="date-column" />
                  {columns.map((column) => (
                    <col key={column.id} style={column.width ? { width: `${column.width}px` } : undefined} />
                  ))}
                </colgroup>
                <thead>
                  <tr>
                    <th scope="col">
                      <span class="visually-hidden">Open</span>
                    </th>
                    <th scope="col">Submitted</th>
                    {columns.map((column) => (
                      <th scope="col" key={column.id} data-column={column.id}>
                        {column.name}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {page.value.results.map((row: ResultRow) => (
                    <tr key={row.id}>
                      <td>
                        <button type="button" onClick={() => (opened.value = row.id)}>
                          Open<span class="visually-hidden"> the result of {dateTime(row.createdAt)}</span>
                        </button>
                      </td>
                      <td>
                        <When iso={row.createdAt} />
                        {!row.isCompleted && <span class="badge"> (not completed)</span>}
                        {row.userId && <span class="badge"> · {row.userId}</span>}
                      </td>
                      {columns.map((column) => (
                        <td key={column.id}>{cellText(row.cells[column.id])}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {page.value.nextCursor && (
            <button type="button" onClick={() => load(page.value!.nextCursor!)}>
              Load more results
            </button>
          )}
        </>
      )}
    </section>
  )
}
