/**
 * One remembered conversation in every tab of a site. Each save of the record carries a revision
 * one above any this tab saved or followed; a tab hears the others' saves (the memory's `watch`:
 * a BroadcastChannel, else storage events) and goes on from a newer record than its own by
 * showing it, without acting on it: the tab that saved it plays its step and sends its answer.
 * The service decides between tabs that answer one step at once: both send under the input's
 * key (ActiveInput.answerKey), it takes the first and refuses the other (409), whose tab then
 * follows the winner's record (`catchUp`). Part of the remembered-conversations chunk.
 */
import { batch } from '@preact/signals-core'
import { widgetWarning } from '../events/events'
import type { Next, Pending } from '../state/stage'
import { announceEnd } from '../state/transcript'
import type { ConversationMemory } from './conversation-memory'
import type { RememberHost } from './remember-host'
import { pendingOf, restoreEntries } from './restore'
import { parseSavedConversation, type SavedConversation } from './saved-schema'

/** Per chat's memory: the newest revision this tab saved or followed; `following` while it shows another's (nothing is saved). */
interface Revision {
  rev: number
  following: boolean
}
const revisions = new WeakMap<ConversationMemory, Revision>()

function revisionOf(memory: ConversationMemory): Revision {
  let revision = revisions.get(memory)
  if (!revision) revisions.set(memory, (revision = { rev: 0, following: false }))
  return revision
}

/** The revision the record saved now carries; undefined while this tab shows another's record (it saves nothing then). */
export function nextRevision(memory: ConversationMemory): number | undefined {
  const revision = revisionOf(memory)
  return revision.following ? undefined : ++revision.rev
}

/** This tab goes on from a record of revision `rev` (a reload). */
export function sawRevision(memory: ConversationMemory, rev = 0): void {
  const revision = revisionOf(memory)
  revision.rev = Math.max(revision.rev, rev)
}

/**
 * Follows what other tabs save from now on, until the returned function is called. A tab follows
 * a newer record of its own conversation, or, where every tab shares one record (local storage),
 * the conversation another tab started instead, on the same flow version.
 */
export function keepInStep(host: RememberHost): () => void {
  return host.memory?.watch?.((data) => follow(host, parseSavedConversation(data))) ?? (() => {})
}

/**
 * Follows the record in storage when another tab saved a newer one than this tab's (one this tab
 * did not hear of: asleep, or without a channel): true when it did, and this tab must not save
 * over it. A visitor's answer given in such a tab is then never sent.
 */
export function followStored(host: RememberHost, stored: SavedConversation | undefined): boolean {
  const { memory, state } = host
  if (!memory || !stored || revisionOf(memory).following) return false
  const stage = state.stage.peek()
  const answering = stage.tag === 'sending' && stage.reply.answered ? stage.reply : undefined
  // A newer record still waiting for the question this tab answers (another tab kept a draft, or
  // showed it after a reload): no one answered it; this answer goes on.
  if (answering && stored.stage.tag === 'waiting-input' && stored.stage.key === answering.key) {
    sawRevision(memory, stored.rev)
    return false
  }
  const followed = follow(host, stored)
  if (followed && answering) answeredElsewhere(host, answering)
  return followed
}

function follow(host: RememberHost, saved: SavedConversation | undefined): boolean {
  const { state, memory } = host
  const session = state.session.peek()
  if (!memory || !saved || !session.storage || saved.publishedAt !== session.publishedAt) return false
  if (saved.sessionId !== session.id && session.storage !== 'local') return false
  const revision = revisionOf(memory)
  if ((saved.rev ?? 0) <= revision.rev) return false
  revision.rev = saved.rev!
  host.stop()
  revision.following = true
  try {
    batch(() => show(host, saved, saved.sessionId !== session.id || session.resumed))
  } finally {
    revision.following = false
  }
  return true
}

/**
 * Shows `saved` as this tab's conversation, where it stands in the tab that saved it: an input
 * waits here too (under the same key); an answer on its way or a step playing there shows as
 * such here (the typing dots), without sending or playing anything.
 */
function show({ state, emit }: RememberHost, saved: SavedConversation, resumed: boolean): void {
  const { entries, lastGuest } = restoreEntries(saved)
  const { storage, publishedAt } = state.session.peek()
  state.clear()
  state.restore({
    session: { id: saved.sessionId, resultId: saved.resultId, publishedAt, storage, resumed },
    avatars: saved.avatars,
    entries,
    progress: saved.progress,
  })
  const { stage } = saved
  if (stage.tag === 'waiting-input') state.showInput(stage.input, stage.draft, stage.key)
  else if (stage.tag === 'sending') state.enter({ tag: 'sending', reply: pendingOf(stage.reply, lastGuest) })
  else if ('step' in stage) state.enter({ tag: 'playing', step: stage.step, typing: true })
  else if (stage.tag === 'ended') {
    state.enter({ tag: 'ended' })
    announceEnd(state.transcript, emit)
  } else state.enter({ tag: 'loading' })
}

/**
 * The service refused `reply` because another tab answered the same step first: this tab says so
 * to the page and shows that tab's record (now, or when it arrives) instead of a second answer.
 */
export function catchUp(host: RememberHost, reply: Pending): Next {
  answeredElsewhere(host, reply)
  follow(host, parseSavedConversation(host.memory?.load()))
  return null
}

/** Tells the page that the visitor's answer `reply` in this tab was not taken: another tab's was. */
const answeredElsewhere = ({ emit }: RememberHost, reply: Pending) =>
  emit(
    'flowchat:log',
    widgetWarning('answered-in-another-tab', 'Another tab of this conversation answered this step first; this tab shows its answer', {
      key: reply.key,
    }),
  )
