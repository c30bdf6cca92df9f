import type { Signal } from '@preact/signals-core'
import type { ChatInput, ChatReplyMessage, ChatStepResult, ClientAction } from '../../../protocol/index'
import type { Told } from '../events/failures'
import type { GuestEntry } from './entries'
import type { LiveHandoff } from './live-handoff'

/** Why a conversation could not go on (its flow republished, it expired) or did not (the visitor started over), and a new one started. */
export type RestartReason = 'republished' | 'expired' | 'requested'

/** The input the visitor can answer now; `key` changes each time one is shown, resetting its view. */
export interface ActiveInput {
  input: ChatInput
  key: number
  /**
   * The typed answer so far: the rejected answer to correct, else the flow's prefilled value. The
   * text field edits it, and so do the page's `setInputValue` calls.
   */
  draft: Signal<string>
  /**
   * The idempotency key of the answer to this input, kept with it in the remembered record: every
   * tab showing this input sends its answer under the same key, so the service takes one answer
   * for the step whichever tab sends it (another one is refused, 409).
   */
  answerKey: string
}

/** An answer (or a host page's command) on its way to the service, kept until it is acknowledged (for Retry and reloads). */
export interface Pending {
  /**
   * `null`: no message (after a streamed answer, which the service recorded itself, or an
   * optional file input skipped); an object: a command, or files (`attachedFileUrls`).
   */
  message: ChatReplyMessage | null
  key: string
  /** The bubble showing it; null for a client action's hidden reply or a command. */
  entry: GuestEntry | null
  /** The input it answers, given back when the service rejects the answer. */
  answered: ChatInput | null
  /**
   * What follows when the service does not take it, when not the usual failure (see turnFailed):
   * a host page's command carries its own, which also settles its caller's promise.
   */
  failed?(error: unknown): Next
}

/** `restart`: begin a new conversation; `resend`: send the pending answer again; `none`: nothing helps. */
export interface Failure extends Told {
  recovery: 'restart' | 'resend' | 'none'
}

/**
 * Where one conversation stands. Everything the interface shows about it (the input, the typing
 * dots, a failure, the loading state) and what a reload finds in storage follow from it.
 * - `playing`: showing a step's bubbles, with the typing indicator when `typing`;
 * - `running-action`: a client action of the step runs (a script, a wait, a redirect, an HTTP
 *   request, the wait for a webhook (see `isWaitingForWebhook`), or a person of the owner's team
 *   (a handoff: `live` says where it stands once its runner runs);
 * - `streaming`: an answer streams in, token by token, for an action whose runner says so;
 * - `sending`: an answer (or an action's hidden reply) is on its way;
 * - `redirected`: a redirect took this tab away; nothing more plays.
 */
export type Stage =
  | { tag: 'idle' }
  | { tag: 'loading' }
  | { tag: 'playing'; step: ChatStepResult; typing: boolean }
  | { tag: 'running-action' | 'streaming'; step: ChatStepResult; action: ClientAction; live?: LiveHandoff }
  | { tag: 'waiting-input'; input: ActiveInput }
  | { tag: 'sending'; reply: Pending }
  | { tag: 'ended' }
  | { tag: 'redirected' }
  | { tag: 'failed'; failure: Failure; reply?: Pending }

export type StageTag = Stage['tag']

/** The chat waits for an outside system (a wait-for-webhook block): shown as waiting, commands still go. */
export const isWaitingForWebhook = (stage: Stage): stage is Extract<Stage, { tag: 'running-action' }> =>
  stage.tag === 'running-action' && stage.action.type === 'listenForWebhook'

/** The live part of a handoff, while its action runs. */
export const liveHandoff = (stage: Stage): LiveHandoff | undefined => (stage.tag === 'running-action' ? stage.live : undefined)

/**
 * What comes after a turn: a step to play, a reply to deliver, a remembered conversation that
 * has to start over (`null`: for no reason the visitor needs to hear), one to catch up with
 * (another tab answered the step `catchUp` answered: its record goes on), or nothing: the
 * visitor's turn, the end, or a failure the visitor sees.
 */
export type Next = { play: ChatStepResult } | { deliver: Pending } | { startOver: RestartReason | null } | { catchUp: Pending } | null
