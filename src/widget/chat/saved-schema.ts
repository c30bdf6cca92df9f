import type { z } from 'zod/mini'
// Named imports, not the `z` namespace: this module is a chunk's, and it takes from the core's
// zod exactly these functions (a namespace would keep all of zod in the core).
import { array, boolean, enum as oneOf, literal, minLength, nullable, number, object, optional, string, union } from 'zod/mini'
import { chatInputSchema, chatMessageSchema, chatStepResultSchema } from '../../protocol/chat'

/** The version of the record below: a reload refuses (and forgets) any other. */
export const SAVED_VERSION = 1

const text = optional(string())

/**
 * A conversation as the browser remembers it between page loads (`settings.general.rememberUser`):
 * what the visitor saw and where the chat stands, so a reload shows the same transcript and goes
 * on with the same session.
 * - `pending`: an answer (or a host page's command) sent but not yet acknowledged; resent with its
 *   idempotency key, so it is applied once whether or not the first request reached the service
 *   (`shown`: it has a guest bubble, the last one; `input`: the input it answers, given back if
 *   the service rejects it);
 * - `step`: a step received but maybe not fully played; played again;
 * - `input`: the input waiting for the visitor, with what was typed into it when saved.
 */
const savedSchema = object({
  version: literal(SAVED_VERSION),
  /** The published flow's `updatedAt` the session runs on: a republished flow starts fresh. */
  publishedAt: string(),
  sessionId: string().check(minLength(1)),
  resultId: string(),
  entries: array(
    union([
      object({ kind: literal('host'), message: chatMessageSchema, avatarUrl: text }),
      object({
        kind: literal('guest'),
        text: string(),
        status: oneOf(['sending', 'sent', 'failed', 'rejected']),
        error: text,
        avatarUrl: text,
      }),
    ]),
  ),
  avatars: object({ host: text, guest: text }),
  progress: nullable(number()),
  pending: nullable(
    object({
      message: nullable(union([string(), object({ type: literal('command'), command: string() })])),
      key: string(),
      shown: boolean(),
      input: optional(chatInputSchema),
    }),
  ),
  step: nullable(chatStepResultSchema),
  input: nullable(object({ input: chatInputSchema, draft: text })),
  ended: boolean(),
})

export type SavedConversation = z.infer<typeof savedSchema>

/** Reads a saved record; anything else (another version, edited by hand, truncated) is none. */
export function parseSavedConversation(data: unknown): SavedConversation | undefined {
  const result = savedSchema.safeParse(data)
  return result.success ? result.data : undefined
}
