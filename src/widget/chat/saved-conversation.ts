import { z } from 'zod/mini'
import { chatInputSchema, chatMessageSchema, chatStepResultSchema, type Settings } from '../../protocol/index'
import { guestEntry, hostEntry, type Entry, type GuestEntry } from './entries'
import { widgetWarning, type Emit } from './events'
import { pendingOf, stepOf, type Stage } from './stage'
import type { Transcript } from './transcript'

export const SAVED_VERSION = 1
/**
 * Bubbles kept across a reload. Bounded so that saving after each turn costs the same at turn
 * 1,000 as at turn 1, and the record stays far below storage quotas (about 5 MB per origin).
 */
export const MAX_SAVED_ENTRIES = 200

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
type SavedEntry = SavedConversation['entries'][number]

/** Reads a saved record; anything else (another version, edited by hand, truncated) is none. */
export function parseSavedConversation(data: unknown): SavedConversation | undefined {
  const result = savedSchema.safeParse(data)
  return result.success ? result.data : undefined
}

/** Where the flow wants conversations remembered, if at all. */
export function rememberStorage(settings: Settings | null | undefined): 'session' | 'local' | undefined {
  const remember = settings?.general?.rememberUser
  if (remember?.isEnabled !== true) return undefined
  return remember.storage === 'local' ? 'local' : 'session'
}

function saveEntry(entry: Entry): SavedEntry {
  if (entry.kind === 'host') return { kind: 'host', message: entry.message, avatarUrl: entry.avatarUrl }
  return {
    kind: 'guest',
    text: entry.text.peek(),
    status: entry.status.peek(),
    error: entry.error.peek() ?? undefined,
    avatarUrl: entry.avatarUrl,
  }
}

export interface SnapshotSource {
  stage: Stage
  session: { id: string; resultId: string; publishedAt: string }
  transcript: Transcript
  avatars: { host?: string | undefined; guest?: string | undefined }
  progress: number | null
}

/** What a reload needs to show this conversation again and go on from where its stage stands. */
export function snapshot({ stage, session, transcript, avatars, progress }: SnapshotSource): SavedConversation {
  const reply = pendingOf(stage)
  return {
    version: SAVED_VERSION,
    publishedAt: session.publishedAt,
    sessionId: session.id,
    resultId: session.resultId,
    entries: transcript.latest(MAX_SAVED_ENTRIES).map(saveEntry),
    avatars: { ...avatars },
    progress,
    pending: reply && { message: reply.message, key: reply.key, shown: reply.entry !== null, input: reply.answered ?? undefined },
    step: stepOf(stage),
    input: stage.tag === 'waiting-input' ? { input: stage.input.input, draft: stage.input.draft.peek() || undefined } : null,
    ended: stage.tag === 'ended',
  }
}

/** The saved conversation, if any and readable; an unreadable one is dropped with a log. */
export function readSaved(memory: { load(): unknown; clear(): void } | undefined, emit: Emit): SavedConversation | undefined {
  const data = memory?.load()
  if (data === undefined || data === null) return undefined
  const saved = parseSavedConversation(data)
  if (!saved) {
    memory?.clear()
    emit('flowchat:log', widgetWarning('saved-conversation-invalid', 'The remembered conversation could not be read; a new one starts'))
  }
  return saved
}

/** The transcript entries of a saved conversation; `lastGuest` is the bubble of a pending answer. */
export function restoreEntries(saved: SavedConversation): { entries: Entry[]; lastGuest: GuestEntry | null } {
  let lastGuest: GuestEntry | null = null
  const entries = saved.entries.map((item): Entry => {
    if (item.kind === 'host') return hostEntry(item.message, item.avatarUrl, true)
    const entry = guestEntry(item.text, item.avatarUrl)
    entry.status.value = item.status
    entry.error.value = item.error ?? null
    lastGuest = entry
    return entry
  })
  return { entries, lastGuest }
}
