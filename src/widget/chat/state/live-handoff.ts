import type { ReadonlySignal, Signal } from '@preact/signals-core'
import type { Agent, HandoffStatus } from '../../../protocol/handoff'
import type { Words } from '../../i18n/strings'
import type { GuestEntry } from './entries'

/**
 * A conversation handed to a person, as the chat shows it while the `handoff` action runs (its
 * runner, chat/actions/handoff.ts, makes it; the stage carries it to the views). State as signals,
 * what the visitor can do as verbs.
 */
export interface LiveHandoff {
  /** `connecting` until the service said where the handoff stands; then the contract's status. */
  readonly status: ReadonlySignal<'connecting' | HandoffStatus>
  /** The person on the conversation, once one claimed it. */
  readonly agent: ReadonlySignal<Agent | null>
  /** The person is typing now. */
  readonly agentTyping: ReadonlySignal<boolean>
  /**
   * Why the live part cannot be followed right now (the connection dropped, the service is busy):
   * said calmly while the chat keeps trying by itself.
   */
  readonly trouble: ReadonlySignal<Words | null>
  /** The visitor asked to leave; the flow goes on once the service took it. */
  readonly leaving: ReadonlySignal<boolean>
  /** What the visitor is typing to the person. */
  readonly draft: Signal<string>
  /** Sends `text` to the person (once, however often it is retried); false when there is nothing to send. */
  send(text: string): boolean
  /** Sends a failed message again, with its idempotency key. */
  resend(entry: GuestEntry): void
  /** The visitor typed (the person is told, at most every few seconds). */
  typed(): void
  /** Leaves the queue, or the conversation: the flow goes on from the handoff block. */
  leave(): void
}
