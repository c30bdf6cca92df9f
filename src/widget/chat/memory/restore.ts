import { type Entry, type GuestEntry, guestEntry, hostEntry } from '../state/entries'
import type { Pending } from '../state/stage'
import type { SavedConversation, SavedStage } from './saved-schema'

/**
 * The transcript entries of a saved conversation, as a reload or another tab shows them again
 * (not read out again); `lastGuest` is the bubble of a pending answer.
 */
export function restoreEntries(saved: SavedConversation): { entries: Entry[]; lastGuest: GuestEntry | null } {
  let lastGuest: GuestEntry | null = null
  const entries = saved.entries.map((item): Entry => {
    if (item.kind === 'host') return { ...hostEntry(item.message, item.avatarUrl, true), at: item.at }
    if (item.kind === 'agent') return { ...item, key: `h${item.handoffId}:${item.seq}`, restored: true }
    const entry: GuestEntry = { ...guestEntry(item.text, item.avatarUrl), live: item.live, at: item.at }
    entry.status.value = item.status
    entry.error.value = item.error === undefined ? null : { text: item.error }
    // A message to a person is not the answer a reload sends again (the handoff does that itself).
    if (!item.live) lastGuest = entry
    return entry
  })
  return { entries, lastGuest }
}

/** A saved answer owed to the service as the conversation holds it again; `lastGuest` is its bubble when it had one. */
export function pendingOf(reply: Extract<SavedStage, { tag: 'sending' }>['reply'], lastGuest: GuestEntry | null): Pending {
  const { message, key, shown, input } = reply
  return { message, key, entry: shown ? lastGuest : null, answered: input ?? null }
}
