import type { VariableValue } from '../../protocol/common'
import type { ResultsTablePreferences } from '../../protocol/flow'
import type { ResultColumn } from '../../protocol/results'

/** Widths a column may take, in CSS pixels. */
export const MIN_WIDTH = 60
export const MAX_WIDTH = 800

/** The preferences the columns show, as the flow's `resultsTablePreferences` stores them. */
export function preferencesOf(columns: ResultColumn[]): Required<ResultsTablePreferences> {
  return {
    columnsOrder: columns.map((column) => column.id),
    columnsVisibility: Object.fromEntries(columns.map((column) => [column.id, !column.hidden])),
    columnsWidth: Object.fromEntries(columns.flatMap((column) => (column.width === undefined ? [] : [[column.id, column.width]]))),
  }
}

/** The column at `index` moved by `by` places (kept within the list). */
export function move<T>(columns: T[], index: number, by: number): T[] {
  const to = Math.min(columns.length - 1, Math.max(0, index + by))
  const next = [...columns]
  const [moved] = next.splice(index, 1)
  next.splice(to, 0, moved!)
  return next
}

export const clampWidth = (width: number) => Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, width)))

/** A cell as text: lists joined, booleans in words. */
export function cellText(cell: VariableValue | undefined): string {
  if (cell === undefined || cell === null) return ''
  if (Array.isArray(cell)) return cell.join(', ')
  if (typeof cell === 'boolean') return cell ? 'yes' : 'no'
  return String(cell)
}
