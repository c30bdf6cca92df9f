import { isUserId } from '../../protocol/identity'
import { EXPORT_FORMATS, type ExportFormat, RESULTS_LIMITS } from '../../protocol/results'
import { HttpError } from '../http/errors'
import type { ResultFilters } from '../store/results-repository'

/**
 * The query of a results list or export, read strictly: each parameter at most once, every
 * value checked and bounded, an unknown parameter refused (a misspelt filter must not quietly
 * export everything).
 */

/** Every value of every query parameter, as the request has them. */
export type QueryValues = Record<string, string[]>

export interface ListQuery {
  filters: ResultFilters
  cursor: string | undefined
  limit: number
}

export interface ExportQuery {
  filters: ResultFilters
  format: ExportFormat
  /** Only the columns `resultsTablePreferences` leaves visible. */
  visibleOnly: boolean
}

const FILTERS = ['completed', 'from', 'to', 'q', 'userId']
/** `2026-11-26`, `2026-11-26T10:00`, `…:00`, `…:00.123`, with `Z` or an offset after a time. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:\d{2}))?$/
/** Control characters cannot be in an answer (NUL cannot even be stored): a search for them is a mistake. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

export function readListQuery(query: QueryValues): ListQuery {
  const one = reader(query, [...FILTERS, 'cursor', 'limit'])
  const limit = one('limit')
  const cursor = one('cursor')
  if (cursor !== undefined && cursor === '') throw invalid('cursor', 'Give the nextCursor of the page before, or no cursor.')
  return {
    filters: filters(one),
    cursor,
    limit: limit === undefined ? RESULTS_LIMITS.defaultPage : wholeNumber('limit', limit, 1, RESULTS_LIMITS.maxPage),
  }
}

export function readExportQuery(query: QueryValues): ExportQuery {
  const one = reader(query, [...FILTERS, 'format', 'columns'])
  const format = one('format') ?? 'csv'
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) throw invalid('format', `Expected one of ${EXPORT_FORMATS.join(', ')}.`)
  const columns = one('columns') ?? 'all'
  if (columns !== 'all' && columns !== 'visible') throw invalid('columns', 'Expected all or visible.')
  return { filters: filters(one), format: format as ExportFormat, visibleOnly: columns === 'visible' }
}

function reader(query: QueryValues, known: readonly string[]): (name: string) => string | undefined {
  const unknown = Object.keys(query).filter((name) => !known.includes(name))
  if (unknown.length > 0) {
    throw new HttpError(
      'invalid_query',
      `Unknown query parameter${unknown.length > 1 ? 's' : ''}: expected only ${known.join(', ')}.`,
      unknown.slice(0, 10).map((name) => ({ path: name.slice(0, 100), message: 'Unknown parameter' })),
    )
  }
  return (name) => {
    const values = query[name]
    if (values === undefined || values.length === 0) return undefined
    if (values.length > 1) throw invalid(name, 'Give this parameter once.')
    return values[0]
  }
}

function filters(one: (name: string) => string | undefined): ResultFilters {
  const result: ResultFilters = {}
  const completed = one('completed')
  if (completed !== undefined) {
    if (completed !== 'true' && completed !== 'false') throw invalid('completed', 'Expected true or false.')
    result.completed = completed === 'true'
  }
  const from = one('from')
  const to = one('to')
  if (from !== undefined) result.from = timestamp('from', from)
  if (to !== undefined) result.to = timestamp('to', to)
  if (result.from !== undefined && result.to !== undefined && result.from >= result.to) {
    throw invalid('to', 'Must be later than from.')
  }
  const q = one('q')
  if (q !== undefined) {
    if (q.trim() === '') throw invalid('q', 'Give some text to search for, or no q.')
    if (q.length > RESULTS_LIMITS.maxSearchLength) throw invalid('q', `At most ${RESULTS_LIMITS.maxSearchLength} characters.`)
    if (CONTROL.test(q)) throw invalid('q', 'Control characters cannot be searched for.')
    result.text = q
  }
  const userId = one('userId')
  if (userId !== undefined) {
    if (!isUserId(userId)) throw invalid('userId', 'Expected a user id: 1 to 256 characters, no control characters.')
    result.userId = userId
  }
  return result
}

function timestamp(name: string, value: string): string {
  const ms = TIMESTAMP.test(value) ? Date.parse(value) : Number.NaN
  // Years the database and every client read the same way.
  if (!(ms >= Date.UTC(1970, 0, 1) && ms < Date.UTC(10_000, 0, 1))) {
    throw invalid(name, 'Expected an ISO 8601 date or time, such as 2026-11-26 or 2026-11-26T10:00:00Z.')
  }
  return new Date(ms).toISOString()
}

function wholeNumber(name: string, value: string, min: number, max: number): number {
  const n = /^\d{1,6}$/.test(value) ? Number(value) : Number.NaN
  if (!(n >= min && n <= max)) throw invalid(name, `Expected a whole number from ${min} to ${max}.`)
  return n
}

function invalid(name: string, message: string): HttpError {
  return new HttpError('invalid_query', `Query parameter ${name}: ${message}`, [{ path: name, message }])
}
