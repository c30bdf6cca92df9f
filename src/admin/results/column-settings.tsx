import { useSignal } from '@preact/signals'
import { updateFlow } from '../../protocol/management-api'
import type { ResultColumn } from '../../protocol/results'
import { api, messageOf } from '../api'
import { announce } from '../session'
import { clampWidth, MAX_WIDTH, MIN_WIDTH, move, preferencesOf } from './columns'

/**
 * The table's columns as the flow's `resultsTablePreferences` keeps them: order (moved with
 * buttons, the keyboard's way), visibility and width; saved through the flow's update (PATCH), so
 * exports with `columns=visible` and every other reader see the same table.
 */
export function ColumnSettings(props: { flowId: string; columns: ResultColumn[]; onSaved(): void }) {
  const draft = useSignal(props.columns)
  const error = useSignal<string | null>(null)
  const update = (index: number, change: Partial<ResultColumn>) => {
    draft.value = draft.value.map((column, at) => (at === index ? { ...column, ...change } : column))
  }

  const save = async (event: Event) => {
    event.preventDefault()
    try {
      await updateFlow(api, props.flowId, { resultsTablePreferences: preferencesOf(draft.value) })
      error.value = null
      announce('Column settings saved.')
      props.onSaved()
    } catch (caught) {
      error.value = messageOf(caught)
    }
  }

  return (
    <form class="columns" onSubmit={save}>
      <ol>
        {draft.value.map((column, index) => (
          <li key={column.id}>
            <span class="column-name">{column.name}</span>
            <label>
              <input
                type="checkbox"
                aria-label={`Show ${column.name}`}
                checked={!column.hidden}
                onChange={(event) => update(index, { hidden: !event.currentTarget.checked })}
              />{' '}
              Shown
            </label>
            <label>
              Width
              <input
                type="number"
                min={MIN_WIDTH}
                max={MAX_WIDTH}
                step={10}
                aria-label={`Width of ${column.name} in pixels`}
                value={column.width ?? ''}
                placeholder="auto"
                onChange={(event) => {
                  const value = event.currentTarget.value
                  update(index, { width: value === '' ? undefined : clampWidth(Number(value)) })
                }}
              />
            </label>
            <button
              type="button"
              aria-label={`Move ${column.name} up`}
              disabled={index === 0}
              onClick={() => (draft.value = move(draft.value, index, -1))}
            >
              ↑
            </button>
            <button
              type="button"
              aria-label={`Move ${column.name} down`}
              disabled={index === draft.value.length - 1}
              onClick={() => (draft.value = move(draft.value, index, 1))}
            >
              ↓
            </button>
          </li>
        ))}
      </ol>
      <button type="submit">Save column settings</button>
      {error.value && (
        <p class="error" role="alert">
          {error.value}
        </p>
      )}
    </form>
  )
}
