import { stringify } from 'csv-stringify/sync'
import type { ExportFormat, ResultColumn, ResultRow } from '../../protocol/results'
import type { FlowRecord } from '../store/flows-repository'
import type { ResultFilters, ResultPosition } from '../store/results-repository'
import type { Store } from '../store/store'
import { isPlainNegative, neutraliseInnerFormulas, OTHER_SEPARATORS } from './csv-formulas'
import { cellText, resultColumns, toResultRow } from './result-columns'

/**
 * A flow's results as a file, written while it is read: the results are read newest first a
 * batch at a time (the same keyset reads as the pages: each batch starts after the last one
 * read, so no connection or transaction stays open for a slow download), each batch is written
 * and read by the client before the next is fetched. Memory stays that of one batch, whatever
 * the number of results.
 *
 * CSV is UTF-8 with a byte order mark (so spreadsheet programs read accents), CRLF line ends and
 * a header row. No cell a spreadsheet makes of it runs as a formula (OWASP's CSV injection
 * advice): a field beginning with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading
 * `'` (csv-stringify), and so does every such character that begins a cell a spreadsheet may cut
 * the field into, after a `,`, a `;` (the separator where the decimal mark is a comma), a tab or
 * a line break (csv-formulas.ts); fields holding a `;` or a tab are quoted as well. JSON Lines is
 * one object per result.
 */

export const EXPORT_BATCH = 500

export interface ExportRequest {
  format: ExportFormat
  filters: ResultFilters
  visibleOnly: boolean
}

export const EXPORT_MEDIA_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
}

/** What comes before the results in the file, and how each batch is written. */
interface Writer {
  head(): string
  rows(rows: readonly ResultRow[]): string
}

export async function exportResults(store: Store, flow: FlowRecord, request: ExportRequest): Promise<ReadableStream<Uint8Array>> {
  const all = await resultColumns(store, flow)
  const columns = request.visibleOnly ? all.filter((column) => !column.hidden) : all
  const writer = request.format === 'csv' ? csvWriter(columns) : jsonLinesWriter(columns)
  const encoder = new TextEncoder()
  let after: ResultPosition | undefined
  let started = false
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true
          return controller.enqueue(encoder.encode(writer.head()))
        }
        const records = await store.results.page(flow.id, request.filters, after, EXPORT_BATCH)
        if (records.length > 0) {
          const answers = await store.results.latestAnswers(records.map((record) => record.id))
          controller.enqueue(encoder.encode(writer.rows(records.map((record) => toResultRow(columns, record, answers.get(record.id))))))
          after = records.at(-1)
        }
        if (records.length < EXPORT_BATCH) controller.close()
      },
    },
    // One batch waits at most while the client reads the one before.
    { highWaterMark: 1 },
  )
}

// A line break of any kind inside a cell is quoted: csv-stringify quotes only the record
// delimiter itself once one is chosen, unless told.
const CSV_OPTIONS = {
  escape_formulas: true,
  record_delimiter: 'windows',
  quote_record_delimiter: true,
  quoted_match: OTHER_SEPARATORS,
} as const

function csvWriter(columns: readonly ResultColumn[]): Writer {
  return {
    head: () =>
      stringify(
        [['Result id', 'Created at', 'Updated at', 'Completed', ...columns.map((column) => neutraliseInnerFormulas(column.name))]],
        {
          ...CSV_OPTIONS,
          bom: true,
        },
      ),
    rows: (rows) =>
      stringify(
        rows.map((row) => [
          row.id,
          row.createdAt,
          row.updatedAt,
          row.isCompleted ? 'yes' : 'no',
          ...columns.map((column) => csvField(cellText(row.cells[column.id]))),
        ]),
        CSV_OPTIONS,
      ),
  }
}

/**
 * A negative number is written as a number, so it is not mistaken for a formula and prefixed;
 * only text that reads back as the very same number is (`-5`, not `-05` or `-1+1`).
 */
function csvField(text: string): string | number {
  return isPlainNegative(text) ? Number(text) : neutraliseInnerFormulas(text)
}

function jsonLinesWriter(columns: readonly ResultColumn[]): Writer {
  return {
    head: () => '',
    rows: (rows) =>
      rows
        .map((row) => {
          const values: Record<string, unknown> = {}
          for (const column of columns) if (column.id in row.cells) values[column.name] = row.cells[column.id]
          return `${JSON.stringify({ id: row.id, createdAt: row.createdAt, updatedAt: row.updatedAt, isCompleted: row.isCompleted, values })}\n`
        })
        .join(''),
  }
}
