// What the widget's live chunk reads (the action, the events, a long poll's answer) is written with
// named imports and the schema kinds the widget's core already has (`anyOf` for a union, `oneOf` for
// a literal or an enum): the chunk takes them from the core's zod, where the `z` namespace would
// keep all of zod in the core (build/lazy-chunks.ts). The team's shapes below use `z` freely.
import { array, boolean, looseObject, number, optional, string, unknown, z } from 'zod/mini'
import { handoffSchema } from './action-payloads'
import { anyOf } from './common'
import { oneOf } from './one-of'

/**
 * A conversation handed to a person (the `handoff` block): the contract the service, the widget's
 * live chunk, the console's inbox and a team's own tools share. No Node APIs.
 *
 * The flow reaches a `handoff` block: the step's response carries the waiting message and the
 * client action `{type: 'handoff', handoff: {handoffId}}` (`handoffActionSchema`). The widget then
 * follows the conversation's events on `HANDOFF_EVENTS_PATH` until a `continued` event hands it the
 * step the flow produced when the conversation came back to it (the person ended it, no one
 * answered in time, or the visitor left the queue), shown like a continueChat answer.
 *
 * Events are numbered per handoff (`seq`, from 1, no gaps): a client asks for those after the last
 * it holds (`Last-Event-ID`, or `after` for a long poll), so a dropped connection loses none and
 * shows none twice. Typing is never stored and has no `seq`.
 */

// The visitor's side: the session id is the secret, as for continueChat; the flow's allowed
// origins rule on CORS.

/**
 * `GET` as Server-Sent Events (`Accept: text/event-stream`): each stored event is `id: <seq>`,
 * `event: <type>`, `data: <HandoffEvent JSON>`; typing is `event: typing` without an id; comments
 * keep the stream alive. Reconnecting with `Last-Event-ID` (or `?after=<seq>`) replays what came
 * after it. A stream ends after at most `MAX_STREAM_SECONDS`; the client reconnects.
 *
 * `GET …?poll=1&after=<seq>[&timeoutSeconds=0…25]` is the fallback where a stream cannot stay
 * open: a JSON `HandoffPollResponse` as soon as there are events after `after`, or empty at the
 * timeout.
 */
export const HANDOFF_EVENTS_PATH = '/v1/sessions/{sessionId}/handoff/events'
/** `POST {text}` with an `Idempotency-Key`: a visitor's message (201, the stored `HandoffEvent`). */
export const HANDOFF_MESSAGES_PATH = '/v1/sessions/{sessionId}/handoff/messages'
/** `POST {typing: boolean}`: 204. Rate limited; sent at most every few seconds while typing. */
export const HANDOFF_TYPING_PATH = '/v1/sessions/{sessionId}/handoff/typing'
/** `POST {}`: the visitor leaves the queue or the conversation; the flow goes on (its `continued` event). */
export const HANDOFF_LEAVE_PATH = '/v1/sessions/{sessionId}/handoff/leave'

// The team's side: a secret token, or an agent token (reads and answers conversations only).

/** `GET ?status=waiting,live,ended&cursor=…`: `HandoffListResponse`, newest first. */
export const HANDOFFS_PATH = '/v1/handoffs'
/** `GET` as Server-Sent Events: the workspace's inbox (`InboxEvent`s), `Authorization` header. */
export const INBOX_EVENTS_PATH = '/v1/handoffs/events'
/** `GET`: `HandoffAgentsResponse`, the workspace's agents a conversation can be handed to. */
export const HANDOFF_AGENTS_PATH = '/v1/handoffs/agents'
/** `GET`: `HandoffDetail`. `POST …/claim`, `…/messages`, `…/typing`, `…/variables`, `…/transfer`, `…/end`. */
export const HANDOFF_PATH = '/v1/handoffs/{handoffId}'

/** The block's type in a flow (our own block; see docs/flow-authors/blocks.md). */
export const HANDOFF_BLOCK_TYPE = 'handoff'

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const
const clockTime = z.string().check(z.regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/))

/**
 * A `handoff` block's `options`. Its first item (`items[0]`, with its own `outgoingEdgeId`, edges
 * from `{blockId, itemId}`) is the "no one answered" exit: taken when no person claims the
 * conversation within `timeoutSeconds`, outside `openingHours` (at once), or when the visitor
 * leaves. The block's own `outgoingEdgeId` is taken when the person ends the conversation.
 */
export const handoffBlockOptionsSchema = z.looseObject({
  /** Shown while waiting; `{{variables}}` are filled in. */
  waitingMessage: z.optional(z.string().check(z.maxLength(4_000))),
  timeoutSeconds: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(86_400))),
  /** When people answer, in an IANA time zone; times `HH:MM`, `to` excluded (`24:00` for midnight). */
  openingHours: z.optional(
    z.looseObject({
      timeZone: z.string(),
      hours: z.array(z.looseObject({ days: z.array(z.enum(WEEKDAYS)), from: clockTime, to: clockTime })),
    }),
  ),
  /** Variables (ids) the person sees and may set; the flow goes on with what they set. */
  variableIds: z.optional(z.array(z.string())),
})
export type HandoffBlockOptions = z.infer<typeof handoffBlockOptionsSchema>

export const MAX_HANDOFF_MESSAGE_LENGTH = 4_000
export const MAX_POLL_SECONDS = 25
export const MAX_STREAM_SECONDS = 300
export const DEFAULT_HANDOFF_TIMEOUT_SECONDS = 120

/** Where a handed-over conversation stands. */
export const HANDOFF_STATUSES = ['waiting', 'live', 'ended', 'unanswered', 'left'] as const
export type HandoffStatus = (typeof HANDOFF_STATUSES)[number]

/** The person answering, as the visitor sees them (an agent token's name and avatar). */
export const agentSchema = /* @__PURE__ */ looseObject({ name: string(), avatarUrl: optional(string()) })
export type Agent = z.infer<typeof agentSchema>

/** The client action's payload: which handoff to follow (`ACTION_PAYLOADS.handoff`). */
export const handoffActionSchema = handoffSchema
export type HandoffAction = z.infer<typeof handoffActionSchema>

const stored = { seq: number(), at: string() }

/**
 * A stored event of one handoff. `message`: a line of the conversation (`author` says whose;
 * `agent` is set for a person's; `system` lines are the service's own, e.g. "Ada joined").
 * `status`: the handoff moved (a person claimed it: `live` with `agent`; it ended one way or
 * another). `continued`: the last event, carrying the flow's next step (a `ChatStepResult`, read
 * with `chatStepResultSchema` by whoever shows it).
 */
export const handoffEventSchema = /* @__PURE__ */ anyOf(
  looseObject({
    ...stored,
    type: oneOf('message'),
    author: oneOf('visitor', 'agent', 'system'),
    text: string(),
    agent: optional(agentSchema),
  }),
  looseObject({ ...stored, type: oneOf('status'), status: oneOf(...HANDOFF_STATUSES), agent: optional(agentSchema) }),
  looseObject({ ...stored, type: oneOf('continued'), step: unknown() }),
)
export type HandoffEvent = z.infer<typeof handoffEventSchema>

/** Who is typing now (not stored: sent to those listening at that moment). */
export const typingEventSchema = /* @__PURE__ */ looseObject({
  author: oneOf('visitor', 'agent'),
  typing: boolean(),
  agent: optional(agentSchema),
})
export type TypingEvent = z.infer<typeof typingEventSchema>

/** `agent`: who answers now (while live), so a page that comes back after the `live` event names them. */
export const handoffPollResponseSchema = /* @__PURE__ */ looseObject({
  status: oneOf(...HANDOFF_STATUSES),
  events: array(handoffEventSchema),
  agent: optional(agentSchema),
})
export type HandoffPollResponse = z.infer<typeof handoffPollResponseSchema>

export const handoffMessageRequestSchema = z.strictObject({
  text: z.string().check(z.minLength(1), z.maxLength(MAX_HANDOFF_MESSAGE_LENGTH)),
})
export const handoffTypingRequestSchema = z.strictObject({ typing: z.boolean() })

/** One conversation in the team's list. */
export const handoffSummarySchema = z.looseObject({
  id: z.string(),
  flowId: z.string(),
  flowName: z.string(),
  resultId: z.string(),
  status: z.enum(HANDOFF_STATUSES),
  requestedAt: z.string(),
  claimedAt: z.optional(z.string()),
  endedAt: z.optional(z.string()),
  /** When a waiting conversation takes the "no one answered" path. */
  deadline: z.optional(z.string()),
  /** The token that claimed it (its id) and how the visitor sees them. */
  agentTokenId: z.optional(z.string()),
  agent: z.optional(agentSchema),
  /** The last line of the conversation, for the list. */
  lastMessage: z.optional(z.string()),
})
export type HandoffSummary = z.infer<typeof handoffSummarySchema>

export const handoffListResponseSchema = z.looseObject({ handoffs: z.array(handoffSummarySchema), nextCursor: z.optional(z.string()) })
export type HandoffListResponse = z.infer<typeof handoffListResponseSchema>

/**
 * One conversation, whole: the flow's part (what the visitor saw and answered before the
 * handoff, as in a result's transcript), the variables the block shows to the person (name and
 * value), and the live part's events so far.
 */
export const handoffDetailSchema = z.looseObject({
  handoff: handoffSummarySchema,
  transcript: z.array(z.looseObject({ author: z.enum(['flow', 'visitor']), text: z.string(), at: z.optional(z.string()) })),
  variables: z.array(z.looseObject({ id: z.string(), name: z.string(), value: z.nullable(z.string()) })),
  events: z.array(handoffEventSchema),
})
export type HandoffDetail = z.infer<typeof handoffDetailSchema>

/** `POST …/variables`: sets a variable the block shows to the person; the flow goes on with it. */
export const setHandoffVariableRequestSchema = z.strictObject({
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  value: z.string().check(z.maxLength(10_000)),
})
/** `POST …/transfer`: hands a live conversation to another agent token of the workspace. */
export const transferHandoffRequestSchema = z.strictObject({ agentTokenId: z.string() })

/**
 * `GET /v1/handoffs/agents`: the people of the workspace (its agent tokens) by the id a transfer
 * names, with the name and picture visitors see; never a token's value or hint.
 */
export const handoffAgentSchema = z.looseObject({ id: z.string(), name: z.string(), avatarUrl: z.optional(z.string()) })
export type HandoffAgent = z.infer<typeof handoffAgentSchema>
export const handoffAgentsResponseSchema = z.looseObject({ agents: z.array(handoffAgentSchema) })
export type HandoffAgentsResponse = z.infer<typeof handoffAgentsResponseSchema>

/**
 * The inbox stream's events (`event: <type>`, `id:` a workspace-wide position to resume from):
 * `handoff` when a conversation appears or changes (its summary), `message` when a line is added
 * to one (with its `handoffId`), `typing` for a visitor typing (not stored).
 */
export const inboxEventSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('handoff'), handoff: handoffSummarySchema }),
  z.looseObject({ type: z.literal('message'), handoffId: z.string(), event: handoffEventSchema }),
  z.looseObject({ type: z.literal('typing'), handoffId: z.string(), typing: z.boolean() }),
])
export type InboxEvent = z.infer<typeof inboxEventSchema>

/** The signed deliveries a workspace's webhook receives (beside `result.completed`). */
export const HANDOFF_WEBHOOK_EVENTS = ['handoff.requested', 'handoff.ended'] as const

/** The path with its parameter filled in (encoded). */
export const handoffPath = (template: string, id: string): string => template.replace(/\{\w+\}/, encodeURIComponent(id))
