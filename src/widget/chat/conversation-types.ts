import type { ReadonlySignal } from '@preact/signals'
import type { ChatInput, PublishedFlow } from '../../protocol/index'
import type { FlowClient, Sleep } from '../transport/index'
import type { ActionRunners, Navigate } from './actions'
import type { Emit, FlowChatErrorDetail } from './events'
import type { SavedConversation } from './saved-conversation'
import type { Transcript } from './transcript'

/** `idle` → `loading` → `active` → `ended`; any of them → `failed` (with a recovery control). */
export type Phase = 'idle' | 'loading' | 'active' | 'ended' | 'failed'

/** The input the visitor can answer now; `key` changes each time one is shown, resetting its state. */
export interface ActiveInput {
  input: ChatInput
  key: number
  /** Initial text: the rejected answer to correct, or the flow's prefilled value. */
  draft: string | undefined
}

/** `restart`: begin a new conversation; `resend`: send the pending hidden reply again. */
export interface Failure {
  detail: FlowChatErrorDetail
  recovery: 'restart' | 'resend' | 'none'
}

export interface ConversationOptions {
  flow: string
  client: FlowClient
  emit: Emit
  prefilledVariables?: unknown
  actions?: ActionRunners
  navigate?: Navigate
  sleep?: Sleep
  newKey?: () => string
  /** Where the conversation is remembered between page loads, when the flow remembers users. */
  memory?: ConversationMemory
}

/** Storage for one chat's saved conversation; implementations never throw. */
export interface ConversationMemory {
  /** The saved record, unchecked (the conversation validates it), or undefined. */
  load(): unknown
  /** Saves in the storage the flow's setting names, and removes it from the other. */
  save(storage: 'session' | 'local', data: SavedConversation): void
  clear(): void
}

/** Why a remembered conversation could not go on and a new one started instead. */
export type RestartReason = 'republished' | 'expired'

export interface Conversation {
  readonly phase: ReadonlySignal<Phase>
  readonly publishedFlow: ReadonlySignal<PublishedFlow | null>
  readonly transcript: Transcript
  readonly typing: ReadonlySignal<boolean>
  readonly input: ReadonlySignal<ActiveInput | null>
  readonly progress: ReadonlySignal<number | null>
  readonly failure: ReadonlySignal<Failure | null>
  /** Set when a remembered conversation was replaced by a new one; the visitor is told why. */
  readonly notice: ReadonlySignal<RestartReason | null>
  /** Starts, or resumes the remembered conversation. */
  start(): void
  /**
   * Sends the visitor's answer to the active input; false when there is nothing to answer.
   * `label` is what the guest bubble shows when it differs from the value sent (a choice's label).
   */
  send(message: string, label?: string): boolean
  /** Sends the failed pending answer again, with its original idempotency key. */
  retry(): void
  /** Forgets the current (and remembered) conversation and starts a new one. */
  restart(): void
  dispose(): void
}
