import type { z } from 'zod/mini'
// Named imports, not the `z` namespace: this module is a chunk's, and it takes from the core's
// zod exactly these functions (a namespace would keep all of zod in the core).
import { array, boolean, nullable, number, object, optional, string } from 'zod/mini'
import { chatInputSchema, chatMessageSchema, chatStepResultSchema } from '../../../protocol/chat'
import { anyOf } from '../../../protocol/common'
import { oneOf } from '../../../protocol/one-of'

/** The version of the record below: a reload refuses (and forgets) any other. */
export const SAVED_VERSION = 2

const text = optional(string())

const nonEmpty = string().check((ctx) => {
  if (!ctx.value) ctx.issues.push({ code: 'too_small', origin: 'string', minimum: 1, inclusive: true, input: ctx.value })
})

const entriesSchema = array(
  anyOf(
    object({ kind: oneOf('host'), message: chatMessageSchema, avatarUrl: text, at: optional(number()) }),
    object({
      kind: oneOf('guest'),
      text: string(),
      status: oneOf('sending', 'waiting', 'sent', 'failed', 'rejected'),
      error: text,
      avatarUrl: text,
      at: optional(number()),
      // A message to a person (a handoff): sent again after a reload with its key, until it has a seq.
      live: optional(object({ handoffId: string(), key: string(), seq: optional(number()) })),
    }),
    // A line of a handoff's live part: a person's message (with their name and avatar then), or the service's.
    object({
      kind: oneOf('agent'),
      handoffId: string(),
      seq: number(),
      author: oneOf('agent', 'system'),
      text: string(),
      agent: optional(object({ name: string(), avatarUrl: text })),
      at: optional(number()),
    }),
  ),
)

/**
 * An answer (or a host page's command) sent but not yet acknowledged; resent with its idempotency
 * key, so it is applied once whether or not the first request reached the service (`shown`: it
 * has a guest bubble, the last one; `input`: the input it answers, given back if the service
 * rejects it).
 */
const replySchema = object({
  message: nullable(
    anyOf(
      string(),
      object({ type: oneOf('command'), command: string() }),
      object({
        type: oneOf('text'),
        text: string(),
        replyId: optional(nullable(string())),
        attachedFileUrls: optional(nullable(array(string()))),
      }),
    ),
  ),
  key: string(),
  shown: boolean(),
  input: optional(chatInputSchema),
})

/**
 * Where the chat stands, as a reload finds it: one tagged value mirroring `Stage` (stage.ts).
 * - `playing`, `running-action`, `streaming`: a step received but maybe not fully played; played
 *   again. `started`: its actions (indexes in its `clientSideActions`) that had started, so may
 *   have had their effect: a request from the browser is not sent twice (http-request-action.ts);
 *   `shown`: how many of its messages were on screen (in `entries`) when an action was running,
 *   so they are not shown twice (a reload while the chat waits for a webhook or a person);
 * - `waiting-input`: the input waiting for the visitor, with what was typed into it when saved
 *   and the idempotency key its answer goes under (`key`: the same from every tab);
 * - `sending`: an answer on its way (or failed, waiting for a retry): resent;
 * - `ended`: the conversation is over;
 * - `redirected`, `idle`: nothing to come back to (a redirect took the tab away, or nothing had
 *   begun): a new conversation begins.
 */
const savedStageSchema = anyOf(
  object({
    tag: oneOf('playing', 'running-action', 'streaming'),
    step: chatStepResultSchema,
    started: optional(array(number())),
    shown: optional(number()),
  }),
  object({ tag: oneOf('waiting-input'), input: chatInputSchema, draft: text, key: text }),
  object({ tag: oneOf('sending'), reply: replySchema }),
  object({ tag: oneOf('ended', 'redirected', 'idle') }),
)
export type SavedStage = z.infer<typeof savedStageSchema>

/** What every version of the record holds besides where the chat stands. */
const commonFields = {
  /** The published flow's `updatedAt` the session runs on: a republished flow starts fresh. */
  publishedAt: string(),
  sessionId: nonEmpty,
  resultId: string(),
  entries: entriesSchema,
  avatars: object({ host: text, guest: text }),
  progress: nullable(number()),
  /**
   * Counts the saves of this conversation by all its tabs: a tab goes on from another's record
   * only when it is newer than any it saved or followed (tab-sync.ts).
   */
  rev: optional(number()),
  /**
   * When the conversation was last saved (ms since the epoch): its last activity, after which
   * `rememberUser.expiryHours` says it has expired. Records saved before 2026-11-29 have none.
   */
  savedAt: optional(number()),
}

/**
 * A conversation as the browser remembers it between page loads (`settings.general.rememberUser`):
 * what the visitor saw and where the chat stands, so a reload shows the same transcript and goes
 * on with the same session.
 */
const savedSchema = object({ version: oneOf(SAVED_VERSION), ...commonFields, stage: savedStageSchema })

export type SavedConversation = z.infer<typeof savedSchema>

/**
 * The record as version 1 saved it (before 2026-11-26): where the chat stood as four nullable
 * fields. A visitor mid-chat during an upgrade keeps their chat: it is read as the stage it meant.
 */
const savedV1Schema = object({
  version: oneOf(1),
  ...commonFields,
  pending: nullable(replySchema),
  step: nullable(chatStepResultSchema),
  started: optional(array(number())),
  input: nullable(object({ input: chatInputSchema, draft: text })),
  ended: boolean(),
})

/** Version 1's fields, in the order its reader tried them, as the stage they stood for. */
function stageOfV1({ pending, step, started, input, ended }: z.infer<typeof savedV1Schema>): SavedStage {
  if (pending) return { tag: 'sending', reply: pending }
  if (step) return { tag: 'playing', step, started }
  if (input) return { tag: 'waiting-input', input: input.input, draft: input.draft }
  return { tag: ended ? 'ended' : 'idle' }
}

/** Reads a saved record; anything else (another version, edited by hand, truncated) is none. */
export function parseSavedConversation(data: unknown): SavedConversation | undefined {
  const result = savedSchema.safeParse(data)
  if (result.success) return result.data
  const v1 = savedV1Schema.safeParse(data)
  if (!v1.success) return undefined
  const { publishedAt, sessionId, resultId, entries, avatars, progress } = v1.data
  return { version: SAVED_VERSION, publishedAt, sessionId, resultId, entries, avatars, progress, stage: stageOfV1(v1.data) }
}
