import { batch, type ReadonlySignal, signal } from '@preact/signals-core'
import type { ChatInput, ChatStepResult } from '../../../protocol/index'
import type { PublishedFlow } from '../../transport/index'
import type { Told } from '../events/failures'
import type { Entry } from './entries'
import type { Failure, Pending, RestartReason, Stage } from './stage'
import { createTranscript, type Transcript } from './transcript'

export interface Session {
  id: string
  resultId: string
  /** The published flow's `updatedAt` the session runs on. */
  publishedAt: string
  /** Where the conversation is saved; undefined when the flow does not remember users. */
  storage: 'session' | 'local' | undefined
  /** Restored from storage and not yet confirmed by the service. */
  resumed: boolean
}

/** The avatars bubbles show now (a step's `dynamicTheme` changes them); undefined: the theme's. */
export interface Avatars {
  host?: string | undefined
  guest?: string | undefined
}

/** The visitor's last answer (`message`) to an input (`inputId`). */
export interface LastAnswer {
  inputId: string
  message: string
}

/**
 * How a conversation is saved for a reload, in the chat's storage: the remembered-conversations
 * chunk's (remembered.ts `saverFor`), once a flow that remembers users has loaded it.
 */
export interface Saver {
  /** Saves the conversation if it just entered a stage a reload must come back to (from `previous`). */
  checkpoint(state: ConversationState, previous: Stage): void
  save(state: ConversationState): void
}

/** A remembered conversation as a reload shows it again. */
export interface Restored {
  session: Session
  avatars: Avatars
  entries: readonly Entry[]
  progress: number | null
}

/**
 * Everything one conversation holds, as signals (`stage` says where it stands, the rest is what it
 * has shown), and the transitions that change them, as verbs: nothing else writes them, and an
 * action that changes several writes them in one batch, so no view sees half of it.
 */
export interface ConversationState {
  readonly stage: ReadonlySignal<Stage>
  readonly publishedFlow: ReadonlySignal<PublishedFlow | null>
  readonly transcript: Transcript
  readonly progress: ReadonlySignal<number | null>
  readonly notice: ReadonlySignal<RestartReason | null>
  readonly session: ReadonlySignal<Session>
  readonly avatars: ReadonlySignal<Avatars>
  /** Given back as the draft when the same input comes again (the service refused the answer). */
  readonly lastAnswer: ReadonlySignal<LastAnswer | null>
  /** Moves the conversation to `next`; a checkpoint is saved for a reload. */
  enter(next: Stage): void
  /**
   * Waits for an answer to `input`. Its draft is the answer the service just refused (it sent the
   * same input again), else the flow's prefill; `restored` is what a reload found typed, and
   * `answerKey` the key its answer goes under (another tab's, or a reload's); else a new one.
   */
  showInput(input: ChatInput, restored?: string, answerKey?: string): void
  fail(failure: Told, recovery: Failure['recovery'], reply?: Pending): void
  /** The published flow arrived (its theme paints the chat). */
  receivePublished(version: PublishedFlow): void
  /** A new session runs (startChat answered). */
  open(session: Session): void
  /** The service took an answer on the session: a restored one is confirmed. */
  confirm(): void
  /** A step's avatars (`dynamicTheme`) and progress take effect. */
  applyStep(step: ChatStepResult): void
  /** The visitor answered `inputId` with `message`. */
  noteAnswer(inputId: string, message: string): void
  /** Shows a remembered conversation again, on its restored session. */
  restore(restored: Restored): void
  /** Back to an empty conversation, keeping the published flow (its theme does not flash). */
  clear(): void
  /** Replaces the conversation with a new one about to begin, telling the visitor why (`reason`). */
  startOver(reason: RestartReason | null): void
  /** Saves the conversation with `saver` from now on (at each checkpoint, and on `keep`). */
  saveWith(saver: Saver): void
  /** Saves where the chat stands now, when the flow remembers it (files uploaded to the waiting input). */
  keep(): void
}

/** No session yet (sessions are replaced whole, never changed in place). */
const NO_SESSION: Session = { id: '', resultId: '', publishedAt: '', storage: undefined, resumed: false }

/** `newKey` makes the idempotency key of each input's answer (ActiveInput.answerKey). */
export function createState(newKey: () => string): ConversationState {
  let inputs = 0
  let saver: Saver | undefined
  const stage = signal<Stage>({ tag: 'idle' })
  const publishedFlow = signal<PublishedFlow | null>(null)
  const progress = signal<number | null>(null)
  const notice = signal<RestartReason | null>(null)
  const session = signal(NO_SESSION)
  const avatars = signal<Avatars>({})
  const lastAnswer = signal<LastAnswer | null>(null)
  const transcript = createTranscript()

  const enter = (next: Stage) => {
    const previous = stage.peek()
    stage.value = next
    saver?.checkpoint(state, previous)
  }
  const clear = () =>
    batch(() => {
      session.value = NO_SESSION
      avatars.value = {}
      lastAnswer.value = null
      transcript.clear()
      progress.value = null
      notice.value = null
    })

  const state: ConversationState = {
    stage,
    publishedFlow,
    transcript,
    progress,
    notice,
    session,
    avatars,
    lastAnswer,
    enter,
    showInput(input, restored, answerKey = newKey()) {
      const last = lastAnswer.peek()
      const retried = last?.inputId === input.id ? last.message : undefined
      const prefill = publishedFlow.peek()?.settings?.general?.isInputPrefillEnabled !== false
      const draft = restored ?? retried ?? (prefill ? input.prefilledValue : undefined) ?? ''
      enter({ tag: 'waiting-input', input: { input, key: ++inputs, draft: signal(draft), answerKey } })
    },
    fail(failure, recovery, reply) {
      enter({ tag: 'failed', failure: { ...failure, recovery }, reply })
    },
    receivePublished(version) {
      publishedFlow.value = version
    },
    open(next) {
      session.value = next
    },
    confirm() {
      if (session.peek().resumed) session.value = { ...session.peek(), resumed: false }
    },
    applyStep({ dynamicTheme: theme, progress: value }) {
      const shown = avatars.peek()
      batch(() => {
        if (theme) avatars.value = { host: theme.hostAvatarUrl ?? shown.host, guest: theme.guestAvatarUrl ?? shown.guest }
        if (typeof value === 'number' && Number.isFinite(value)) progress.value = Math.min(100, Math.max(0, value))
      })
    },
    noteAnswer(inputId, message) {
      lastAnswer.value = { inputId, message }
    },
    restore(restored) {
      batch(() => {
        session.value = restored.session
        avatars.value = restored.avatars
        for (const entry of restored.entries) transcript.append(entry)
        progress.value = restored.progress
      })
    },
    clear,
    startOver(reason) {
      batch(() => {
        clear()
        notice.value = reason
        enter({ tag: 'loading' })
      })
    },
    saveWith(chunk) {
      saver = chunk
    },
    keep() {
      saver?.save(state)
    },
  }
  return state
}
