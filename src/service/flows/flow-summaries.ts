import { type FlowStandingChange, type FlowSummary, MAX_FLOWS_LIST } from '../../protocol/management'
import type { FlowRecord, FlowSummaryRecord } from '../store/flows-repository'
import type { Store } from '../store/store'
import { DEFAULT_FLOW_NAME } from './flow-document'
import { findFlowOrThrow } from './flow-service'

/**
 * A workspace's flows as lists show them (live or not, how many results), and the changes of
 * standing that answer with a flow's summary: archive, unarchive, unpublish. Like the other flow
 * operations, `authorize` runs on the flow before anything changes.
 */

export async function listFlows(store: Store, workspaceId: string): Promise<FlowSummary[]> {
  return (await store.flows.listSummaries({ workspaceId, limit: MAX_FLOWS_LIST })).map(toFlowSummary)
}

/**
 * Archived, a flow is out of service (no conversations, no share page, no published reads) while
 * its owner still reads and edits it; unpublished, it keeps serving the conversations under way
 * on the version they started with, but no new one starts until it is published again.
 */
export async function changeFlowStanding(
  store: Store,
  input: { flowId: string; change: FlowStandingChange; now: Date; authorize: (flow: FlowRecord) => void },
): Promise<FlowSummary> {
  const flow = await findFlowOrThrow(store, input.flowId)
  input.authorize(flow)
  if (input.change === 'unpublish') await store.publishedFlows.unpublish(flow.id)
  else await store.flows.setArchived(flow.id, input.change === 'archive', input.now.toISOString())
  const [summary] = await store.flows.listSummaries({ flowId: flow.id, limit: 1 })
  return toFlowSummary(summary!)
}

export function toFlowSummary(record: FlowSummaryRecord): FlowSummary {
  const { name, icon, ...rest } = record
  return { ...rest, name: name || DEFAULT_FLOW_NAME, ...(icon ? { icon } : {}) }
}
