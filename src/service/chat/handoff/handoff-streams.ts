import { type HandoffPollResponse, MAX_POLL_SECONDS, type TypingEvent } from '../../../protocol/handoff'
import type { HandoffRecord, StoredHandoffEvent } from '../../store/handoffs-repository'
import type { ChatDeps } from '../chat-deps'
import { type EventSink, eventStreamBody } from './event-streams'
import { apiEvent, summaryOf } from './handoff-views'

/**
 * The live channel's reads: a handoff's events as Server-Sent Events (the visitor's stream), the
 * same as a long poll where a stream cannot stay open, and a workspace's as the team's inbox.
 * Each stream takes a place among its process's open streams (429 past the bounds), replays what
 * came after the position its client names, then follows the hub.
 */

export interface StreamRequest {
  /** The last event the client holds (`Last-Event-ID` or `after`); 0 for all. */
  after: number
  clientKey: string
  signal?: AbortSignal
}

/** Undefined when nothing will ever come (the flow went on and the client has every event): answer 204. */
export function handoffStream(deps: ChatDeps, handoff: HandoffRecord, request: StreamRequest): ReadableStream<Uint8Array> | undefined {
  if (handoff.continuedAt !== null && request.after >= handoff.lastSeq) return undefined
  const live = deps.handoffs
  const release = live.streams.open(handoff.workspaceId, request.clientKey)
  return eventStreamBody(
    async (sink) =>
      live.hub.follow(
        handoff.id,
        request.after,
        {
          onEvents: (events) => {
            for (const event of events) sink.event(event.type, apiEvent(event), event.seq)
            // The last event: the flow has the conversation back.
            if (events.some((event) => event.type === 'continued')) sink.end()
          },
          onTyping: (typing) => sink.event('typing', typingPayload(typing)),
          onClosed: () => sink.end(),
        },
        'agent',
      ),
    streamOptions(deps, request, release),
  )
}

/** The long poll: the events after `after` as soon as there are any, or none at the timeout. */
export async function handoffPoll(
  deps: ChatDeps,
  handoff: HandoffRecord,
  request: StreamRequest & { timeoutSeconds: number },
): Promise<HandoffPollResponse> {
  const live = deps.handoffs
  const release = live.streams.open(handoff.workspaceId, request.clientKey)
  const stored = await deps.store.handoffs.events(handoff.id, request.after).catch((error: unknown) => {
    release()
    throw error
  })
  if (stored.length > 0 || handoff.continuedAt !== null) {
    release()
    return pollAnswer((await deps.store.handoffs.find(handoff.id)) ?? handoff, stored)
  }
  const timeoutMs = Math.min(Math.max(request.timeoutSeconds, 0), MAX_POLL_SECONDS) * 1000
  let stop: (() => void) | undefined
  try {
    const events = await new Promise<StoredHandoffEvent[]>((resolve) => {
      const timer = setTimeout(() => resolve([]), timeoutMs)
      const done = (found: StoredHandoffEvent[]) => {
        clearTimeout(timer)
        resolve(found)
      }
      request.signal?.addEventListener('abort', () => done([]), { once: true })
      void live.hub.follow(handoff.id, request.after, { onEvents: done }).then(
        (unsubscribe) => {
          stop = unsubscribe
        },
        () => done([]),
      )
    })
    return pollAnswer((await deps.store.handoffs.find(handoff.id)) ?? handoff, events)
  } finally {
    stop?.()
    release()
  }
}

/** The events, the handoff's status and, while live, who answers (a client back after the `live` event names them). */
const pollAnswer = (current: HandoffRecord, events: StoredHandoffEvent[]): HandoffPollResponse => ({
  status: current.status,
  events: events.map(apiEvent),
  ...(current.status === 'live' && current.agent ? { agent: current.agent } : {}),
})

/** The team's inbox: every handoff of the workspace as it appears and changes, its lines, visitors typing. */
export function inboxStream(deps: ChatDeps, workspaceId: string, request: StreamRequest): ReadableStream<Uint8Array> {
  const live = deps.handoffs
  const release = live.streams.open(workspaceId, request.clientKey)
  return eventStreamBody(
    async (sink) => {
      const from = request.after > 0 ? request.after : await deps.store.handoffs.workspacePosition(workspaceId)
      // Summaries are read per event: writes go out one after another, in the order of the events.
      let writing = Promise.resolve()
      return live.hub.followWorkspace(workspaceId, from, {
        onEvents: (events) => {
          writing = writing.then(() => writeInbox(deps, sink, events)).catch(() => sink.end())
        },
        onTyping: (typing) => sink.event('typing', { type: 'typing', handoffId: typing.handoffId, typing: typing.typing }),
        onClosed: () => sink.end(),
      })
    },
    streamOptions(deps, request, release),
  )
}

async function writeInbox(deps: ChatDeps, sink: EventSink, events: StoredHandoffEvent[]): Promise<void> {
  for (const event of events) {
    if (event.type === 'message') {
      sink.event('message', { type: 'message', handoffId: event.handoffId, event: apiEvent(event) }, event.position)
      continue
    }
    const summary = await deps.store.handoffs.summary(event.handoffId)
    if (summary) sink.event('handoff', { type: 'handoff', handoff: summaryOf(summary, summary) }, event.position)
  }
}

function streamOptions(deps: ChatDeps, request: StreamRequest, release: () => void) {
  const { settings } = deps.handoffs
  return {
    heartbeatMs: settings.heartbeatSeconds * 1000,
    maxMs: settings.streamMaxSeconds * 1000,
    ...(request.signal ? { signal: request.signal } : {}),
    closed: release,
  }
}

const typingPayload = ({ handoffId: _handoffId, ...typing }: TypingEvent & { handoffId: string }): TypingEvent => typing
