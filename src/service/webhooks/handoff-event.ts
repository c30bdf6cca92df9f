import type { HandoffEvent, HandoffSummary } from '../../protocol/handoff'
import { apiEvent, summaryOf } from '../chat/handoff/handoff-views'
import { DEFAULT_FLOW_NAME } from '../flows/flow-document'
import type { Store } from '../store/store'

/** The body of a `handoff.requested` or `handoff.ended` call, beside `result.completed` (completion-event.ts). */
export interface HandoffWebhookEvent {
  type: 'handoff.requested' | 'handoff.ended'
  timestamp: string
  data: {
    flow: { id: string; publicId: string; name: string }
    handoff: HandoffSummary
    /** `handoff.ended`: the conversation with the person, every line in order. */
    messages?: HandoffEvent[]
  }
}

/** Undefined when the handoff or its flow is gone. */
export async function handoffWebhookEvent(
  store: Store,
  input: { handoffId: string; event: string; now: Date },
): Promise<HandoffWebhookEvent | undefined> {
  const [summary, events] = await Promise.all([store.handoffs.summary(input.handoffId), store.handoffs.events(input.handoffId, 0, 10_000)])
  const flow = summary && (await store.flows.findById(summary.flowId))
  if (!summary || !flow) return undefined
  const type = input.event === 'handoff.ended' ? 'handoff.ended' : 'handoff.requested'
  return {
    type,
    timestamp: input.now.toISOString(),
    data: {
      flow: { id: flow.id, publicId: flow.publicId, name: String(flow.content.name || DEFAULT_FLOW_NAME) },
      handoff: summaryOf(summary, summary),
      ...(type === 'handoff.ended' ? { messages: events.filter((event) => event.type === 'message').map(apiEvent) } : {}),
    },
  }
}
