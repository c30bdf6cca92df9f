/**
 * Remembered conversations (`settings.general.rememberUser`): saving one at each checkpoint,
 * reading it back, and going on from where it stood after a reload, or starting over when its flow
 * was republished or its session expired. A chunk of its own: only the chats of flows that
 * remember users, or whose storage holds a record, load it.
 */
import { hasExpired } from '../../../protocol/chat-settings'
import type { ChatStepResult, ClientAction } from '../../../protocol/index'
import type { PublishedFlow } from '../../transport/index'
import { startedBeforeReload } from '../actions/started-before-reload'
import { type Emit, widgetWarning } from '../events/events'
import type { ConversationState, Saver } from '../state/conversation-state'
import type { Entry, GuestEntry } from '../state/entries'
import { orderStep } from '../state/sequence'
import type { Next, Pending, RestartReason, Stage, StageTag } from '../state/stage'
import type { Transcript } from '../state/transcript'
import type { RememberHost } from './remember-host'
import { pendingOf, restoreEntries } from './restore'
import { parseSavedConversation, SAVED_VERSION, type SavedConversation, type SavedStage } from './saved-schema'
import { followStored, nextRevision, sawRevision } from './tab-sync'

export type { RememberHost } from './remember-host'
export { catchUp, keepInStep } from './tab-sync'
export type { SavedConversation }

/**
 * Bubbles kept across a reload. Bounded so that saving after each turn costs the same at turn
 * 1,000 as at turn 1, and the record stays far below storage quotas (about 5 MB per origin).
 */
export const MAX_SAVED_ENTRIES = 200

function saveEntry(entry: Entry): SavedConversation['entries'][number] {
  if (entry.kind === 'host') return { kind: 'host', message: entry.message, avatarUrl: entry.avatarUrl, at: entry.at }
  if (entry.kind === 'agent') {
    const { handoffId, seq, author, text, agent, at } = entry
    return { kind: 'agent', handoffId, seq, author, text, agent, at }
  }
  return {
    kind: 'guest',
    text: entry.text.peek(),
    status: entry.status.peek(),
    error: entry.error.peek()?.text,
    avatarUrl: entry.avatarUrl,
    at: entry.at,
    live: entry.live,
  }
}

/**
 * The actions of each step played on this page that were started, as indexes in its
 * `clientSideActions` (saved as `started`): a reload plays the step again, and an action that may
 * already have had its effect (an HTTP request that left) must know it.
 */
const startedActions = new WeakMap<ChatStepResult, number[]>()

/** Records that `stage`'s action starts now (before its runner runs). */
function recordStart(stage: Stage): void {
  if (stage.tag !== 'running-action') return
  const index = stage.step.clientSideActions?.indexOf(stage.action) ?? -1
  const started = startedActions.get(stage.step) ?? []
  if (index >= 0 && !started.includes(index)) startedActions.set(stage.step, [...started, index])
}

/** The newest `n` entries of `transcript`, oldest first. */
export function latest(transcript: Transcript, n: number): Entry[] {
  const size = transcript.count.peek()
  const out: Entry[] = []
  for (let index = Math.max(0, size - n); index < size; index++) out.push(transcript.at(index)!)
  return out
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
  return {
    version: SAVED_VERSION,
    publishedAt: session.publishedAt,
    sessionId: session.id,
    resultId: session.resultId,
    entries: latest(transcript, MAX_SAVED_ENTRIES).map(saveEntry),
    avatars: { ...avatars },
    progress,
    stage: savedStage(stage),
    savedAt: Date.now(),
  }
}

const savedReply = (reply: Pending): Extract<SavedStage, { tag: 'sending' }>['reply'] => ({
  message: reply.message,
  key: reply.key,
  shown: reply.entry !== null,
  input: reply.answered ?? undefined,
})

/**
 * The transitions across a reload, in one place: `savedStage` says what each stage leaves in
 * storage, `comeBack` how a reload goes on from it.
 * - a step being played (its actions included) is played again, knowing which actions started;
 * - an input waits again with what was typed into it;
 * - an answer owed to the service (sending, or failed and waiting for a retry) is sent again;
 * - an ended chat stays ended;
 * - anything else (a redirect away, nothing begun yet) begins again.
 */
function savedStage(stage: Stage): SavedStage {
  switch (stage.tag) {
    case 'running-action':
      return { tag: stage.tag, step: stage.step, started: startedActions.get(stage.step), shown: shownBefore(stage.step, stage.action) }
    case 'playing':
    case 'streaming':
      return { tag: stage.tag, step: stage.step, started: startedActions.get(stage.step) }
    case 'waiting-input':
      return { tag: 'waiting-input', input: stage.input.input, draft: stage.input.draft.peek() || undefined, key: stage.input.answerKey }
    case 'sending':
      return { tag: 'sending', reply: savedReply(stage.reply) }
    case 'failed':
      return stage.reply ? { tag: 'sending', reply: savedReply(stage.reply) } : { tag: 'idle' }
    case 'ended':
    case 'redirected':
      return { tag: stage.tag }
    case 'idle':
    case 'loading':
      return { tag: 'idle' }
  }
}

/** How the restored conversation goes on from `stage` (see `savedStage`); `lastGuest` is the bubble of an owed answer. */
function comeBack(state: ConversationState, stage: SavedStage, lastGuest: GuestEntry | null): Next {
  switch (stage.tag) {
    case 'sending': {
      const { message, input } = stage.reply
      if (input && typeof message === 'string') state.noteAnswer(input.id, message)
      return { deliver: pendingOf(stage.reply, lastGuest) }
    }
    case 'playing':
    case 'running-action':
    case 'streaming':
      return { play: replay(stage.step, stage.started, stage.shown) }
    case 'waiting-input':
      state.showInput(stage.input, stage.draft, stage.key)
      return null
    case 'ended':
      state.enter({ tag: 'ended' })
      return null
    case 'redirected':
    case 'idle':
      return { startOver: null }
  }
}

/**
 * Stages a reload must be able to come back to: entering one saves the conversation. An action
 * starting is one: the record says so before the action can have an effect.
 */
const CHECKPOINTS: ReadonlySet<StageTag> = new Set(['playing', 'running-action', 'waiting-input', 'sending', 'ended', 'redirected'])

/** Saves the conversation when it just entered a checkpoint (from `previous`) of a session the flow remembers. */
export function checkpoint(host: RememberHost, previous: Stage): void {
  const { state } = host
  const stage = state.stage.peek()
  const { storage, id } = state.session.peek()
  if (!storage || !id || previous.tag === stage.tag || !CHECKPOINTS.has(stage.tag)) return
  recordStart(stage)
  save(host)
}

/** How a conversation is saved in its memory: at its checkpoints, and when asked to keep what it shows. */
export const saverFor = (host: RememberHost): Saver => ({
  checkpoint: (_state, previous) => checkpoint(host, previous),
  save: () => save(host),
})

/**
 * Saves the conversation as it stands now (a checkpoint, or files uploaded to the waiting input),
 * unless another tab saved a newer record meanwhile: this tab follows it instead (tab-sync.ts).
 */
export function save(host: RememberHost): void {
  const { state, memory } = host
  const session = state.session.peek()
  if (!memory || !session.storage || !session.id) return
  const stored = parseSavedConversation(memory.load())
  if (followStored(host, stored)) return
  const { stage, transcript, avatars, progress } = state
  const record = snapshot({ stage: stage.peek(), session, transcript, avatars: avatars.peek(), progress: progress.peek() })
  // The same as stored (a reload showing it again): its revision stays, so no tab takes it for news.
  if (stored && sameRecord(stored, record)) sawRevision(memory, stored.rev)
  else {
    // Nothing is saved while this tab shows what another one saved.
    const rev = nextRevision(memory)
    if (rev !== undefined) memory.save(session.storage, { ...record, rev })
  }
}

/** The same conversation standing at the same place: when and by which save aside. */
const sameRecord = ({ rev: _, savedAt: __, ...stored }: SavedConversation, { savedAt: ___, ...record }: SavedConversation) =>
  JSON.stringify(stored) === JSON.stringify(record)

/** The saved conversation `data` (what storage held), if readable; an unreadable one is dropped with a log. */
function readSaved(data: unknown, { memory, emit }: RememberHost): SavedConversation | undefined {
  const saved = parseSavedConversation(data)
  if (!saved) {
    memory?.clear()
    emit('flowchat:log', widgetWarning('saved-conversation-invalid', 'The remembered conversation could not be read; a new one starts'))
  }
  return saved
}

/**
 * Goes on with the conversation storage held (`data`), if it is readable, the flow still
 * remembers users (`storage`), it runs on the `published` version and it was last saved less than
 * the flow's `rememberUser.expiryHours` ago (24 by default); else a new one begins, with a notice
 * when it was republished or expired.
 */
export function reopen(
  host: RememberHost,
  data: unknown,
  published: PublishedFlow,
  storage: 'session' | 'local' | undefined,
  signal: AbortSignal,
): Promise<Next> | Next {
  const saved = readSaved(data, host)
  if (!saved || !storage) return host.begin(signal, { published })
  // A remembered conversation goes on only with the flow version it started on.
  if (saved.publishedAt !== published.updatedAt) return startOver(host, 'republished', signal, saved.resultId, published)
  const expiryHours = published.settings?.general?.rememberUser?.expiryHours
  if (saved.savedAt !== undefined && hasExpired(saved.savedAt, Date.now(), expiryHours))
    return startOver(host, 'expired', signal, undefined, published)
  if (host.memory) sawRevision(host.memory, saved.rev)
  return resume(host.state, saved, storage, host.emit)
}

/**
 * Replaces the remembered conversation with a new one. Its flow was republished (or nothing had
 * begun): the same result goes on (`resultId`). It expired (idle too long, or the service no
 * longer has its session): a new result begins and the old one is kept, as for a signed-in
 * visitor (docs/decisions/2026-11-28-expiry-default.md).
 */
export function startOver(
  { state, memory, begin }: RememberHost,
  reason: RestartReason | null,
  signal: AbortSignal,
  resultId: string | undefined = state.session.peek().resultId,
  published?: PublishedFlow,
): Promise<Next> {
  memory?.clear()
  state.startOver(reason)
  return begin(signal, { published, resultId: reason === 'expired' ? undefined : resultId, reason: reason ?? undefined })
}

/**
 * How many of `step`'s messages play before `action`: on screen while it runs. They come first in
 * the order the step plays (sequence.ts), so they are the first ones of its `messages`.
 */
function shownBefore(step: ChatStepResult, action: ClientAction): number {
  const items = orderStep(step.messages ?? [], step.clientSideActions ?? [])
  const at = items.findIndex((item) => item.kind === 'action' && item.action === action)
  return items.slice(0, Math.max(at, 0)).filter((item) => item.kind === 'message').length
}

/**
 * `step` to play again, its actions in `started` marked as such (and still counted as started),
 * without the first `shown` messages, which the restored transcript holds already.
 */
function replay(step: ChatStepResult, started: number[] = [], shown = 0): ChatStepResult {
  if (!started.length && !shown) return step
  const clientSideActions = step.clientSideActions?.map((action, index) => (started.includes(index) ? startedBeforeReload(action) : action))
  const copy = { ...step, clientSideActions, messages: step.messages?.slice(shown) }
  startedActions.set(copy, started)
  return copy
}

/** Shows the remembered conversation again and says how it goes on from where it stood. */
export function resume(state: ConversationState, saved: SavedConversation, storage: 'session' | 'local', emit: Emit): Next {
  const { entries, lastGuest } = restoreEntries(saved)
  state.restore({
    session: { id: saved.sessionId, resultId: saved.resultId, publishedAt: saved.publishedAt, storage, resumed: true },
    avatars: saved.avatars,
    entries,
    progress: saved.progress,
  })
  emit('flowchat:start', { sessionId: saved.sessionId, resultId: saved.resultId, resumed: true })
  return comeBack(state, saved.stage, lastGuest)
}
