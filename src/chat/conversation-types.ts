import type { ReadonlySignal } from '@preact/signals'
import type { ChatInput, PublishedFlow, Settings } from '../protocol/index'
import type { FlowClient, Sleep } from '../transport/index'
import type { ActionRunners, Navigate } from './actions'
import type { Emit, FlowChatErrorDetail } from './events'
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
  /** A result to resume (a returning visitor, when the flow remembers users). */
  resultId?: string
  /** Called once the chat started, to remember (or forget) the visitor's result. */
  onStarted?: (resultId: string, settings: Settings | null | undefined) => void
}

export interface Conversation {
  readonly phase: ReadonlySignal<Phase>
  readonly publishedFlow: ReadonlySignal<PublishedFlow | null>
  readonly transcript: Transcript
  readonly typing: ReadonlySignal<boolean>
  readonly input: ReadonlySignal<ActiveInput | null>
  readonly progress: ReadonlySignal<number | null>
  readonly failure: ReadonlySignal<Failure | null>
  start(): void
  /** Sends the visitor's answer to the active input; false when there is nothing to answer. */
  send(message: string): boolean
  /** Sends the failed pending answer again, with its original idempotency key. */
  retry(): void
  restart(): void
  dispose(): void
}
