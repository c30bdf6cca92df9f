import { batch, signal, type Signal } from '@preact/signals-core'
import type { ChatInput } from '../../protocol/index'
import type { PublishedFlow } from '../transport/index'
import type { ConversationMemory, RestartReason } from './conversation-types'
import type { Told } from './failures'
import type * as Remembered from './remembered'
import type { Failure, Pending, Stage } from './stage'
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

/** Everything one conversation holds; `stage` says where it stands, the rest is what it has shown. */
export interface ConversationState {
  readonly stage: Signal<Stage>
  readonly publishedFlow: Signal<PublishedFlow | null>
  readonly transcript: Transcript
  readonly progress: Signal<number | null>
  readonly notice: Signal<RestartReason | null>
  session: Session
  avatars: { host?: string | undefined; guest?: string | undefined }
  /** The remembered-conversations chunk, once loaded: it saves the checkpoints (see `enter`). */
  remembered: typeof Remembered | undefined
  /** The visitor's last answer: given back as the draft when the same input comes again (a retry). */
  lastAnswer: { inputId: string; message: string } | null
  /** Moves the conversation to `next`; a checkpoint is saved for a reload. */
  enter(next: Stage): void
  /**
   * Waits for an answer to `input`. Its draft is the answer the service just refused (it sent the
   * same input again), else the flow's prefill; `restored` is what a reload found typed.
   */
  showInput(input: ChatInput, restored?: string): void
  fail(failure: Told, recovery: Failure['recovery'], reply?: Pending): void
  /** Back to an empty conversation, keeping the published flow (its theme does not flash). */
  clear(): void
}

const emptySession = (): Session => ({ id: '', resultId: '', publishedAt: '', storage: undefined, resumed: false })

export function createState(memory: ConversationMemory | undefined): ConversationState {
  let inputs = 0
  const state: ConversationState = {
    stage: signal<Stage>({ tag: 'idle' }),
    publishedFlow: signal<PublishedFlow | null>(null),
    transcript: createTranscript(),
    progress: signal<number | null>(null),
    notice: signal<RestartReason | null>(null),
    session: emptySession(),
    avatars: {},
    lastAnswer: null,
    remembered: undefined,
    enter(next) {
      const previous = state.stage.peek()
      state.stage.value = next
      if (memory) state.remembered?.checkpoint(state, memory, previous)
    },
    showInput(input, restored) {
      const retried = state.lastAnswer?.inputId === input.id ? state.lastAnswer.message : undefined
      const prefill = state.publishedFlow.peek()?.settings?.general?.isInputPrefillEnabled !== false
      const draft = restored ?? retried ?? (prefill ? input.prefilledValue : undefined) ?? ''
      state.enter({ tag: 'waiting-input', input: { input, key: ++inputs, draft: signal(draft) } })
    },
    fail(failure, recovery, reply) {
      state.enter({ tag: 'failed', failure: { ...failure, recovery }, reply })
    },
    clear() {
      state.session = emptySession()
      state.avatars = {}
      state.lastAnswer = null
      state.transcript.clear()
      batch(() => {
        state.progress.value = null
        state.notice.value = null
      })
    },
  }
  return state
}
