import { z } from 'zod/mini'
import { type ApiClient, ApiError, safeJson } from './api-client'
import { type EventStreamFollower, followEventStream, type StreamState } from './follow-event-stream'
import {
  HANDOFF_AGENTS_PATH,
  HANDOFF_PATH,
  HANDOFFS_PATH,
  type HandoffStatus,
  handoffAgentsResponseSchema,
  handoffDetailSchema,
  handoffEventSchema,
  handoffListResponseSchema,
  handoffPath,
  handoffSummarySchema,
  INBOX_EVENTS_PATH,
  type InboxEvent,
  inboxEventSchema,
} from './handoff'

/**
 * The team's side of a handoff, call by call, as management-api.ts writes the others (a secret or
 * an agent token): the conversations, one of them whole, and what a person does with it; and the
 * inbox's event stream, followed with `fetch` (it needs the `Authorization` header) and resumed
 * after the last event held. A module of its own, so a client that manages flows only does not
 * carry the handoff's schemas.
 */

const handoff = (handoffId: string, action = '') => `${handoffPath(HANDOFF_PATH, handoffId)}${action}`

/** What claim, transfer and end answer: the conversation as it now stands. */
const handoffAnswerSchema = z.looseObject({ handoff: handoffSummarySchema })

export const listHandoffs = (api: ApiClient, filter: { status?: readonly HandoffStatus[]; cursor?: string } = {}) => {
  const query = new URLSearchParams()
  if (filter.status?.length) query.set('status', filter.status.join(','))
  if (filter.cursor) query.set('cursor', filter.cursor)
  const search = query.toString()
  return api.read(handoffListResponseSchema, 'GET', search ? `${HANDOFFS_PATH}?${search}` : HANDOFFS_PATH)
}

/** One conversation, whole: the flow's part, the variables it shows to the person, the live part so far. */
export const getHandoff = (api: ApiClient, handoffId: string) => api.read(handoffDetailSchema, 'GET', handoff(handoffId))

/** Takes a waiting conversation; a 409 (`conflict`) when someone else took it first. */
export const claimHandoff = async (api: ApiClient, handoffId: string) =>
  (await api.read(handoffAnswerSchema, 'POST', handoff(handoffId, '/claim'))).handoff

/**
 * A line to the visitor: the stored event. `idempotencyKey` is the message's own (kept for a
 * retry), so a message sent again after a lost answer is stored once.
 */
export const sendHandoffMessage = (api: ApiClient, handoffId: string, text: string, idempotencyKey: string) =>
  api.read(handoffEventSchema, 'POST', handoff(handoffId, '/messages'), { text }, { headers: { 'Idempotency-Key': idempotencyKey } })

/** Tells the visitor the person is typing (or stopped); not stored. */
export const sendHandoffTyping = async (api: ApiClient, handoffId: string, typing: boolean) =>
  void (await api.send('POST', handoff(handoffId, '/typing'), { typing }))

/** Sets a variable the block shows to the person; the flow goes on with it. */
export const setHandoffVariable = async (api: ApiClient, handoffId: string, name: string, value: string) =>
  void (await api.send('POST', handoff(handoffId, '/variables'), { name, value }))

/** The workspace's people a conversation can be handed to (ids, names, pictures): readable with an agent token. */
export const listHandoffAgents = async (api: ApiClient) => (await api.read(handoffAgentsResponseSchema, 'GET', HANDOFF_AGENTS_PATH)).agents

/** Hands a live conversation to another agent token of the workspace. */
export const transferHandoff = async (api: ApiClient, handoffId: string, agentTokenId: string) =>
  (await api.read(handoffAnswerSchema, 'POST', handoff(handoffId, '/transfer'), { agentTokenId })).handoff

/** Ends the conversation with the person: the flow goes on from the block's exit. */
export const endHandoff = async (api: ApiClient, handoffId: string) =>
  (await api.read(handoffAnswerSchema, 'POST', handoff(handoffId, '/end'))).handoff

export interface InboxHandlers {
  onEvent(event: InboxEvent): void
  /** Open (again): what a replay may not cover is read again by the caller (the list). */
  onOpen?(reopened: boolean): void
  onState?(state: StreamState): void
  /** The service refused the stream for good (the token revoked, not allowed): following stopped. */
  onGiveUp?(error: unknown): void
}

/** Refusals that another attempt will not change; anything else (no answer, 5xx, 429, a cut stream) is tried again. */
const lasting = (error: unknown) =>
  error instanceof ApiError && error.status >= 400 && error.status < 500 && ![408, 429].includes(error.status)

/**
 * Follows the workspace's inbox until closed: each event parsed with the contract's schema (one
 * the schema refuses, from a newer service, is skipped), reconnecting after breaks with the last
 * event's id so none is lost or delivered twice.
 */
export function followInbox(api: ApiClient, handlers: InboxHandlers): EventStreamFollower {
  return followEventStream({
    open: (lastEventId, signal) =>
      api.send('GET', INBOX_EVENTS_PATH, undefined, {
        headers: { Accept: 'text/event-stream', ...(lastEventId === undefined ? {} : { 'Last-Event-ID': lastEventId }) },
        signal,
      }),
    onEvent(event) {
      const data = safeJson(event.data)
      const parsed = inboxEventSchema.safeParse(data && typeof data === 'object' ? { ...data, type: event.type } : undefined)
      if (parsed.success) handlers.onEvent(parsed.data)
    },
    retryable: (error) => !lasting(error),
    onOpen: (reopened) => handlers.onOpen?.(reopened),
    onState: (state) => handlers.onState?.(state),
    onGiveUp: (error) => handlers.onGiveUp?.(error),
  })
}
