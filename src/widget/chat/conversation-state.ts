import { batch, signal, type Signal } from '@preact/signals'
import type { ChatInput, PublishedFlow } from '../../protocol/index'
import type { ActiveInput, Failure, Phase, RestartReason } from './conversation-types'
import type { Entry, GuestEntry } from './entries'
import type { FlowChatErrorDetail } from './events'
import { MAX_SAVED_ENTRIES, SAVED_VERSION, saveEntry, type SavedConversation } from './saved-conversation'
import { createTranscript, type Transcript } from './transcript'

/** An answer on its way to the service, kept until it is acknowledged (for Retry and reloads). */
export interface Pending {
  message: string
  key: string
  /** The bubble showing it; null for a client action's hidden reply. */
  entry: GuestEntry | null
  answered: ActiveInput | null
}

/** Everything one conversation holds; the signals are what the UI renders. */
export interface ConversationState {
  readonly phase: Signal<Phase>
  readonly publishedFlow: Signal<PublishedFlow | null>
  readonly transcript: Transcript
  readonly typing: Signal<boolean>
  readonly input: Signal<ActiveInput | null>
  readonly progress: Signal<number | null>
  readonly failure: Signal<Failure | null>
  readonly notice: Signal<RestartReason | null>
  session: {
    id: string
    resultId: string
    /** The published flow's `updatedAt` the session runs on. */
    publishedAt: string
    /** Where the conversation is saved; undefined when the flow does not remember users. */
    storage: 'session' | 'local' | undefined
    /** Restored from storage and not yet confirmed by the service. */
    resumed: boolean
  }
  pending: Pending | null
  bubblesShown: number
  inputCount: number
  avatars: { host?: string | undefined; guest?: string | undefined }
  /** The newest entries, for saving (bounded, see MAX_SAVED_ENTRIES). */
  recent: Entry[]
}

const emptySession = (): ConversationState['session'] => ({ id: '', resultId: '', publishedAt: '', storage: undefined, resumed: false })

export function createState(): ConversationState {
  return {
    phase: signal<Phase>('idle'),
    publishedFlow: signal<PublishedFlow | null>(null),
    transcript: createTranscript(),
    typing: signal(false),
    input: signal<ActiveInput | null>(null),
    progress: signal<number | null>(null),
    failure: signal<Failure | null>(null),
    notice: signal<RestartReason | null>(null),
    session: emptySession(),
    pending: null,
    bubblesShown: 0,
    inputCount: 0,
    avatars: {},
    recent: [],
  }
}

export function append(state: ConversationState, entry: Entry): void {
  state.transcript.append(entry)
  state.recent.push(entry)
  // Trimmed in batches, so keeping the list bounded costs O(1) per append on average.
  if (state.recent.length > MAX_SAVED_ENTRIES * 2) state.recent = state.recent.slice(-MAX_SAVED_ENTRIES)
}

export function showInput(state: ConversationState, chatInput: ChatInput, draft?: string): void {
  const prefill = state.publishedFlow.peek()?.settings?.general?.isInputPrefillEnabled !== false
  state.input.value = {
    input: chatInput,
    key: ++state.inputCount,
    draft: draft ?? (prefill ? (chatInput.prefilledValue ?? undefined) : undefined),
  }
}

export function fail(state: ConversationState, detail: FlowChatErrorDetail, recovery: Failure['recovery']): void {
  batch(() => {
    state.failure.value = { detail, recovery }
    state.phase.value = 'failed'
    state.typing.value = false
  })
}

/** Back to an empty conversation, keeping the published flow (its theme does not flash). */
export function clearState(state: ConversationState): void {
  state.session = emptySession()
  state.pending = null
  state.bubblesShown = 0
  state.avatars = {}
  state.recent = []
  state.transcript.clear()
  batch(() => {
    state.typing.value = false
    state.input.value = null
    state.progress.value = null
    state.failure.value = null
    state.notice.value = null
  })
}

/** What a reload needs to show this conversation again and go on from here. */
export function snapshot(state: ConversationState, at: { step?: SavedConversation['step']; reply?: Pending }): SavedConversation {
  const { session, input } = state
  const reply = at.reply
  const active = input.peek()
  return {
    version: SAVED_VERSION,
    publishedAt: session.publishedAt,
    sessionId: session.id,
    resultId: session.resultId,
    entries: state.recent.slice(-MAX_SAVED_ENTRIES).map(saveEntry),
    avatars: { ...state.avatars },
    progress: state.progress.peek(),
    pending: reply ? { message: reply.message, key: reply.key, shown: reply.entry !== null, input: reply.answered?.input } : null,
    step: at.step ?? null,
    input: active ? { input: active.input, draft: active.draft } : null,
    ended: state.phase.peek() === 'ended',
  }
}
