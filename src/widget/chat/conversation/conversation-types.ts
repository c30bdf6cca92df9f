import type { ReadonlySignal } from '@preact/signals-core'
import type { ChatReplyMessage, CommandReply } from '../../../protocol/index'
import type { ChatEndpoint, FlowClient, PublishedFlow, Sleep } from '../../transport/index'
import type { ActionRunners, Navigate } from '../actions/runners'
import type { Emit } from '../events/events'
import type { ConversationMemory } from '../memory/conversation-memory'
import type { ActiveInput, Failure, RestartReason, Stage } from '../state/stage'

export type { ConversationMemory }

import type { Transcript } from '../state/transcript'

export interface ConversationOptions {
  flow: string
  client: FlowClient
  emit: Emit
  prefilledVariables?: unknown
  /** Who the site says the visitor is (`user-id`, `user-hash`); sent only when both are given. */
  user?: { userId: string; userHash: string }
  actions?: ActionRunners
  navigate?: Navigate
  sleep?: Sleep
  newKey?: () => string
  /** Where the conversation is remembered between page loads, when the flow remembers users. */
  memory?: ConversationMemory
}

/** An answer with files (`{type: "text", text, attachedFileUrls}`); `null` to `send` skips an optional input. */
export type TextAnswer = Exclude<ChatReplyMessage, string | CommandReply>

export interface Conversation {
  /** Where the conversation stands; the signals below follow from it. */
  readonly stage: ReadonlySignal<Stage>
  readonly publishedFlow: ReadonlySignal<PublishedFlow | null>
  readonly transcript: Transcript
  /** The input waiting for the visitor's answer. */
  readonly input: ReadonlySignal<ActiveInput | null>
  /** The flow "types" its next bubble. */
  readonly typing: ReadonlySignal<boolean>
  readonly progress: ReadonlySignal<number | null>
  /** A failure the visitor must see, with its way out (an answer's own failure shows on its bubble instead). */
  readonly failure: ReadonlySignal<Failure | null>
  /** Set when a remembered conversation was replaced by a new one; the visitor is told why. */
  readonly notice: ReadonlySignal<RestartReason | null>
  /** Starts, or resumes the remembered conversation. */
  start(): void
  /**
   * Sends the visitor's answer to the waiting input; false when there is nothing to answer.
   * `label` is what the guest bubble shows when it differs from the value sent (a choice's label).
   * `null` goes on without a message (past a payment the chat cannot take), `label` as the bubble.
   */
  send(message: string | TextAnswer | null, label?: string): boolean
  /**
   * The session running now and the chat API it is on (the conversation's client's), for what
   * only chunks send there: a file input's uploads (transport/upload.ts). Undefined when none runs.
   */
  session(): { chat: ChatEndpoint; id: string } | undefined
  /** Saves where the chat stands now, when the flow remembers it (files uploaded to the waiting input). */
  keep(): void
  /** Replaces what is typed for the waiting input; false when no input is waiting. */
  setDraft(text: string): boolean
  /** Sends what is typed for the waiting input; false when nothing is. */
  submitDraft(): boolean
  /**
   * Runs the flow's `command` event named `name` (`{type: "command", command: name}`), after the
   * answer in flight if there is one. Resolves once the service took it; rejects (and emits
   * `flowchat:error` with code `command-rejected`) when the flow has no such command or the chat
   * cannot take one now, with nothing changed.
   */
  command(name: string): Promise<void>
  /** Sends the failed pending answer again, with its original idempotency key. */
  retry(): void
  /**
   * Fails the conversation with `error` as a turn that fails does (`flowchat:error`, then the
   * notice with its way out): for a view that cannot read the input the step gave it.
   */
  fail(error: unknown): void
  /**
   * Forgets the current (and remembered) conversation and starts a new one (a new result: the
   * service keeps the old one). `requested`: the visitor chose Start over, and is told it started
   * over; a signed-in visitor's running conversation is not resumed then.
   */
  reset(reason?: 'requested'): void
  dispose(): void
}
