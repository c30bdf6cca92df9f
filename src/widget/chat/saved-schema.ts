import type { z } from 'zod/mini'
// Named imports, not the `z` namespace: this module is a chunk's, and it takes from the core's
// zod exactly these functions (a namespace would keep all of zod in the core).
import { array, boolean, nullable, number, object, optional, string } from 'zod/mini'
import { chatInputSchema, chatMessageSchema, chatStepResultSchema } from '../../protocol/chat'
import { anyOf } from '../../protocol/common'

/** The version of the record below: a reload refuses (and forgets) any other. */
export const SAVED_VERSION = 1

const text = optional(string())

/**
 * Exactly one of `values`, as a check function on a string or number schema: the core's zod has
 * no literal, enum or length-check kind for this chunk's sake (they were 1 KB of it).
 */
function oneOf<const T extends string | number>(...values: T[]): z.ZodMiniType<T> {
  const base: z.ZodMiniType = typeof values[0] === 'number' ? number() : string()
  return base.check((ctx) => {
    if (!(values as unknown[]).includes(ctx.value)) ctx.issues.push({ code: 'invalid_value', values, input: ctx.value })
  }) as unknown as z.ZodMiniType<T>
}

const nonEmpty = string().check((ctx) => {
  if (!ctx.value) ctx.issues.push({ code: 'too_small', origin: 'string', minimum: 1, inclusive: true, input: ctx.value })
})

/**
 * A conversation as the browser remembers it between page loads (`settings.general.rememberUser`):
 * what the visitor saw and where the chat stands, so a reload shows the same transcript and goes
 * on with the same session.
 * - `pending`: an answer (or a host page's command) sent but not yet acknowledged; resent with its
 *   idempotency key, so it is applied once whether or not the first request reached the service
 *   (`shown`: it has a guest bubble, the last one; `input`: the input it answers, given back if
 *   the service rejects it);
 * - `step`: a step received but maybe not fully played; played again;
 * - `started`: the actions of `step` (indexes in its `clientSideActions`) that had started, so
 *   may have had their effect: a request from the browser is not sent twice (http-request-action.ts);
 * - `input`: the input waiting for the visitor, with what was typed into it when saved.
 */
const savedSchema = object({
  version: oneOf(SAVED_VERSION),
  /** The published flow's `updatedAt` the session runs on: a republished flow starts fresh. */
  publishedAt: string(),
  sessionId: nonEmpty,
  resultId: string(),
  entries: array(
    anyOf(
      object({ kind: oneOf('host'), message: chatMessageSchema, avatarUrl: text }),
      object({
        kind: oneOf('guest'),
        text: string(),
        status: oneOf('sending', 'sent', 'failed', 'rejected'),
        error: text,
        avatarUrl: text,
      }),
    ),
  ),
  avatars: object({ host: text, guest: text }),
  progress: nullable(number()),
  pending: nullable(
    object({
      message: nullable(anyOf(string(), object({ type: oneOf('command'), command: string() }))),
      key: string(),
      shown: boolean(),
      input: optional(chatInputSchema),
    }),
  ),
  step: nullable(chatStepResultSchema),
  started: optional(array(number())),
  input: nullable(object({ input: chatInputSchema, draft: text })),
  ended: boolean(),
})

export type SavedConversation = z.infer<typeof savedSchema>

/** Reads a saved record; anything else (another version, edited by hand, truncated) is none. */
export function parseSavedConversation(data: unknown): SavedConversation | undefined {
  const result = savedSchema.safeParse(data)
  return result.success ? result.data : undefined
}
