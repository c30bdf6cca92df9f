import type { HandoffEvent, HandoffSummary } from '../../../protocol/handoff'
import type { HandoffRecord, StoredHandoffEvent } from '../../store/handoffs-repository'

/** How the API shows handoffs and their events (src/protocol/handoff.ts). */

/** A stored event as clients see it: without the workspace position and handoff id it is stored with. */
export function apiEvent(event: StoredHandoffEvent): HandoffEvent {
  const { position: _position, handoffId: _handoffId, ...shown } = event
  return shown as HandoffEvent
}

export function summaryOf(record: HandoffRecord, more: { flowName: string; lastMessage: string | null }): HandoffSummary {
  return {
    id: record.id,
    flowId: record.flowId,
    flowName: more.flowName,
    resultId: record.resultId,
    status: record.status,
    requestedAt: record.requestedAt,
    ...(record.claimedAt ? { claimedAt: record.claimedAt } : {}),
    ...(record.endedAt ? { endedAt: record.endedAt } : {}),
    ...(record.status === 'waiting' && record.deadline ? { deadline: record.deadline } : {}),
    ...(record.agentTokenId ? { agentTokenId: record.agentTokenId } : {}),
    ...(record.agent ? { agent: record.agent } : {}),
    ...(more.lastMessage !== null ? { lastMessage: more.lastMessage } : {}),
  }
}
