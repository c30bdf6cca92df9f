import { z } from 'zod/mini'
import { chatInputSchema, chatMessageSchema, chatStepResultSchema } from '../../protocol/chat'

/** The version of the record below: a reload refuses (and forgets) any other. */
export const SAVED_VERSION = 1

const text = z.optional(z.string())

/**
 * A conversation as the browser remembers it between page loads (`settings.general.rememberUser`):
 * what the visitor saw and where the chat stands, so a reload shows the same transcript and goes
 * on with the same session.
 * - `pending`: an answer sent but not yet acknowledged; resent with its idempotency key, so it is
 *   applied once whether or not the first request reached the service (`shown`: it has a guest
 *   bubble, the last one; `input`: the input it answers, given back if the service rejects it);
 * - `step`: a step received but maybe not fully played; played again;
 * - `input`: the input waiting for the visitor, with what was typed into it when saved.
 */
const savedSchema = z.object({
  version: z.literal(SAVED_VERSION),
  /** The published flow's `updatedAt` the session runs on: a republished flow starts fresh. */
  publishedAt: z.string(),
  sessionId: z.string().check(z.minLength(1)),
  resultId: z.string(),
  entries: z.array(
    z.union([
      z.object({ kind: z.literal('host'), message: chatMessageSchema, avatarUrl: text }),
      z.object({
        kind: z.literal('guest'),
        text: z.string(),
        status: z.enum(['sending', 'sent', 'failed', 'rejected']),
        error: text,
        avatarUrl: text,
      }),
    ]),
  ),
  avatars: z.object({ host: text, guest: text }),
  progress: z.nullable(z.number()),
  pending: z.nullable(z.object({ message: z.string(), key: z.string(), shown: z.boolean(), input: z.optional(chatInputSchema) })),
  step: z.nullable(chatStepResultSchema),
  input: z.nullable(z.object({ input: chatInputSchema, draft: text })),
  ended: z.boolean(),
})

export type SavedConversation = z.infer<typeof savedSchema>

/** Reads a saved record; anything else (another version, edited by hand, truncated) is none. */
export function parseSavedConversation(data: unknown): SavedConversation | undefined {
  const result = savedSchema.safeParse(data)
  return result.success ? result.data : undefined
}
