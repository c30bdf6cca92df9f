import { stringify } from 'csv-stringify/sync'
import type { ExportFormat, ResultColumn, ResultRow } from '../../protocol/results'
import type { FlowRecord } from '../store/flows-repository'
import type { StoredHandoffEvent } from '../store/handoffs-repository'
import type { ResultFilters, ResultPosition } from '../store/results-repository'
import type { Store } from '../store/store'
import { CSV_OPTIONS, isPlainNegative, neutraliseInnerFormulas } from './csv-formulas'
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

/** What comes before the results in the file, and how each batch is written (with their conversations with a person). */
interface Writer {
  head(): string
  rows(rows: readonly ResultRow[], conversations: ReadonlyMap<string, StoredHandoffEvent[]>): string
}

/** The CSV column holding what was said with a person (handoff blocks), one line per message. */
export const CONVERSATION_COLUMN = 'Conversation with a person'

/** One message as a line of text: when, who, what. */
function conversationLine(event: StoredHandoffEvent): string {
  if (event.type !== 'message') return ''
  const who = event.author === 'agent' ? (event.agent?.name ?? 'Agent') : event.author === 'visitor' ? 'Visitor' : 'Service'
  return `[${event.at}] ${who}: ${event.text}`
}

const conversationJson = (events: readonly StoredHandoffEvent[]) =>
  events.flatMap((event) =>
    event.type === 'message'
      ? [{ at: event.at, author: event.author, ...(event.agent ? { agent: event.agent.name } : {}), text: event.text }]
      : [],
  )

export async function exportResults(store: Store, flow: FlowRecord, request: ExportRequest): Promise<ReadableStream<Uint8Array>> {
  const all = await resultColumns(store, flow)
  const columns = request.visibleOnly ? all.filter((column) => !column.hidden) : all
  const withConversation = handsOver(flow)
  const writer = request.format === 'csv' ? csvWriter(columns, withConversation) : jsonLinesWriter(columns)
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
          const ids = records.map((record) => record.id)
          const [answers, conversations] = await Promise.all([store.results.latestAnswers(ids), store.handoffs.messagesForResults(ids)])
          const rows = records.map((record) => toResultRow(columns, record, answers.get(record.id)))
          controller.enqueue(encoder.encode(writer.rows(rows, conversations)))
          after = records.at(-1)
        }
        if (records.length < EXPORT_BATCH) controller.close()
      },
    },
    // One batch waits at most while the client reads the one before.
    { highWaterMark: 1 },
  )
}

/** A flow with a handoff block has a column for the conversation with a person; others export as before. */
function handsOver(flow: FlowRecord): boolean {
  const groups = (flow.content as { groups?: unknown }).groups
  return (
    Array.isArray(groups) &&
    groups.some((group) => (group as { blocks?: { type?: unknown }[] })?.blocks?.some?.((block) => block?.type === 'handoff'))
  )
}

function csvWriter(columns: readonly ResultColumn[], withConversation: boolean): Writer {
  return {
    head: () =>
      stringify(
        [
          [
            'Result id',
            'Created at',
            'Updated at',
            'Completed',
            'Version',
            'User id',
            ...columns.map((column) => neutraliseInnerFormulas(column.name)),
            ...(withConversation ? [CONVERSATION_COLUMN] : []),
          ],
        ],
        {
          ...CSV_OPTIONS,
          bom: true,
        },
      ),
    rows: (rows, conversations) =>
      stringify(
        rows.map((row) => [
          row.id,
          row.createdAt,
          row.updatedAt,
          row.isCompleted ? 'yes' : 'no',
          row.version ?? '',
          neutraliseInnerFormulas(row.userId ?? ''),
          ...columns.map((column) => csvField(cellText(row.cells[column.id]))),
          ...(withConversation ? [neutraliseInnerFormulas((conversations.get(row.id) ?? []).map(conversationLine).join('\n'))] : []),
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
    rows: (rows, conversations) =>
      rows
        .map((row) => {
          const values: Record<string, unknown> = {}
          for (const column of columns) if (column.id in row.cells) values[column.name] = row.cells[column.id]
          const conversation = conversationJson(conversations.get(row.id) ?? [])
          const { id, createdAt, updatedAt, isCompleted, version, userId } = row
          const line = { id, createdAt, updatedAt, isCompleted, version: version ?? null, userId: userId ?? null, values }
          return `${JSON.stringify(conversation.length > 0 ? { ...line, conversation } : line)}\n`
        })
        .join(''),
  }
}
