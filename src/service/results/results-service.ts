import type { ResultDetail, ResultsPage } from '../../protocol/results'
import { HttpError } from '../http/errors'
import type { FlowRecord } from '../store/flows-repository'
import type { Store } from '../store/store'
import { resultColumns, toResultRow } from './result-columns'
import type { ResultCursors } from './result-cursor'
import type { ResultFiles } from './result-files'
import type { ListQuery } from './result-query'

/**
 * A flow's results as its owner reads and deletes them. The caller has checked that the flow is
 * the caller's; everything here is scoped to that flow's id, so no id in a request reaches
 * another flow's results.
 */

export interface ResultsDeps {
  store: Store
  cursors: ResultCursors
}

/** Results deleted per statement: a delete of every result holds few rows at once. */
const DELETE_BATCH = 1_000

/** A page of results, newest first, and the cursor of the next one. */
export async function listResults(deps: ResultsDeps, flow: FlowRecord, query: ListQuery): Promise<ResultsPage> {
  const scope = { flowId: flow.id, filters: query.filters }
  const after = query.cursor === undefined ? undefined : deps.cursors.read(query.cursor, scope)
  const [columns, records] = await Promise.all([
    resultColumns(deps.store, flow),
    deps.store.results.page(flow.id, query.filters, after, query.limit + 1),
  ])
  const page = records.slice(0, query.limit)
  const answers = await deps.store.results.latestAnswers(page.map((record) => record.id))
  const last = page.at(-1)
  return {
    columns,
    results: page.map((record) => toResultRow(columns, record, answers.get(record.id))),
    nextCursor: records.length > query.limit && last ? deps.cursors.make(scope, last) : null,
  }
}

/** One result: its row, every answer in order, its variables and its logs. */
export async function resultDetail(store: Store, flow: FlowRecord, resultId: string): Promise<ResultDetail> {
  const record = await store.results.findForFlow(resultId, flow.id)
  if (!record) throw resultNotFound()
  const [columns, answers, logs, conversations] = await Promise.all([
    resultColumns(store, flow),
    store.results.listAnswers(record.id),
    store.resultLogs.list(record.id),
    store.handoffs.messagesForResults([record.id]),
  ])
  const latest = new Map(answers.map((answer) => [answer.blockId, answer.value]))
  const columnOf = new Map(columns.filter((column) => column.kind === 'input').map((column) => [column.blockId!, column.id]))
  // A variable's name is its column's (its own, or that of the first input saving to it).
  const names = new Map<string, string>()
  for (const column of columns) if (column.variableId && !names.has(column.variableId)) names.set(column.variableId, column.name)
  return {
    columns,
    result: {
      ...toResultRow(columns, record, latest),
      flowId: flow.id,
      answers: answers.map((answer) => ({
        ...answer,
        display: answer.display ?? answer.value,
        columnId: columnOf.get(answer.blockId) ?? null,
      })),
      variables: inFlowOrder(Object.entries(record.variables), [...names.keys()]).map(([id, value]) => ({
        id,
        name: names.get(id) ?? null,
        value,
      })),
      logs: logs.map((log) => ({ ...log })),
      // What was said with a person (handoff blocks), in order.
      conversation: (conversations.get(record.id) ?? []).flatMap((event) =>
        event.type === 'message'
          ? [
              {
                handoffId: event.handoffId,
                at: event.at,
                author: event.author,
                text: event.text,
                ...(event.agent ? { agent: event.agent } : {}),
              },
            ]
          : [],
      ),
    },
  }
}

/** Variable values in the order of the flow's columns (the database keeps them in its own order), unknown ones last. */
function inFlowOrder<T>(entries: [string, T][], order: readonly string[]): [string, T][] {
  const rank = new Map(order.map((id, index) => [id, index]))
  return entries.sort(([a], [b]) => (rank.get(a) ?? order.length) - (rank.get(b) ?? order.length))
}

/**
 * Deletes results of the flow (the ids given, or every one), with their sessions, answers,
 * logs, webhook deliveries and files; ids of other flows' results delete nothing. Returns how
 * many were deleted.
 */
export async function deleteResults(
  store: Store,
  files: ResultFiles,
  flow: FlowRecord,
  target: { resultIds: readonly string[] } | { all: true },
): Promise<number> {
  const ids = 'all' in target ? undefined : [...new Set(target.resultIds)]
  let deleted = 0
  for (;;) {
    const gone = await store.results.deleteForFlow(flow.id, ids, DELETE_BATCH)
    if (gone.length > 0) await files.removeForResults(flow, gone)
    deleted += gone.length
    if (gone.length < DELETE_BATCH) return deleted
  }
}

export function resultNotFound(): HttpError {
  return new HttpError('not_found', 'This flow has no result with this id.')
}
