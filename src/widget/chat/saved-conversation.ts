import type { Settings } from '../../protocol/index'
import { guestEntry, hostEntry, type Entry, type GuestEntry } from './entries'
import { widgetWarning, type Emit } from './events'
import { parseSavedConversation, type SavedConversation } from './saved-schema'
import { pendingOf, stepOf, type Stage } from './stage'
import type { Transcript } from './transcript'

export type { SavedConversation }

/**
 * Bubbles kept across a reload. Bounded so that saving after each turn costs the same at turn
 * 1,000 as at turn 1, and the record stays far below storage quotas (about 5 MB per origin).
 */
export const MAX_SAVED_ENTRIES = 200

/** Where the flow wants conversations remembered, if at all. */
export function rememberStorage(settings: Settings | null | undefined): 'session' | 'local' | undefined {
  const remember = settings?.general?.rememberUser
  if (remember?.isEnabled !== true) return undefined
  return remember.storage === 'local' ? 'local' : 'session'
}

function saveEntry(entry: Entry): SavedConversation['entries'][number] {
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
    version: 1,
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

/** The saved conversation `data` (what storage held), if readable; an unreadable one is dropped with a log. */
export function readSaved(data: unknown, memory: { clear(): void }, emit: Emit): SavedConversation | undefined {
  const saved = parseSavedConversation(data)
  if (!saved) {
    memory.clear()
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
