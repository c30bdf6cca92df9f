import type { CompletionEvent } from '../../protocol/webhooks'
import { DEFAULT_FLOW_NAME } from '../flows/flow-document'
import { resultColumns, toResultRow } from '../results/result-columns'
import type { Store } from '../store/store'

/**
 * The body of a `result.completed` call: the flow, the columns of its results table and the
 * result's row, as the results API shows them. Undefined when the result or its flow is gone.
 */
export async function completionEvent(
  store: Store,
  input: { flowId: string; resultId: string; now: Date },
): Promise<CompletionEvent | undefined> {
  const [flow, result, answers] = await Promise.all([
    store.flows.findById(input.flowId),
    store.results.findForFlow(input.resultId, input.flowId),
    store.results.latestAnswers([input.resultId]),
  ])
  if (!flow || !result) return undefined
  const columns = await resultColumns(store, flow)
  return {
    type: 'result.completed',
    timestamp: input.now.toISOString(),
    data: {
      flow: { id: flow.id, publicId: flow.publicId, name: String(flow.content.name || DEFAULT_FLOW_NAME) },
      columns,
      result: toResultRow(columns, result, answers.get(result.id)),
    },
  }
}
