import { batch } from '@preact/signals'
import type { ChatStepResult } from '../../protocol/index'
import { isTransportError, type FlowClient, type Sleep } from '../transport/index'
import { runClientAction, type ActionRunners, type Navigate } from './actions'
import { append, fail, showInput, type ConversationState, type Pending } from './conversation-state'
import { hostEntry } from './entries'
import type { Emit } from './events'
import { describeFailure, isRejection, isSessionGone } from './failures'
import { playStep } from './player'
import { orderStep } from './sequence'
import { typingSettings } from './typing'

export interface TurnDeps {
  client: FlowClient
  emit: Emit
  sleep: Sleep
  runners: ActionRunners
  navigate: Navigate
  newKey(): string
  /** Checkpoint for a reload (see snapshot in conversation-state). */
  save(at?: { step?: ChatStepResult; reply?: Pending }): void
  /** The restored session is gone on the service: a new conversation has to replace it. */
  sessionGone(signal: AbortSignal): Promise<void>
}

export interface Turns {
  /** Plays a step the service sent, then waits for the visitor (or ends, or replies for an action). */
  play(step: ChatStepResult, signal: AbortSignal): Promise<void>
  /** Sends an answer (or an action's reply) and plays the step that comes back. */
  deliver(reply: Pending, signal: AbortSignal): Promise<void>
}

/** The exchange with the service: the flow speaks (a step), the visitor answers, and so on. */
export function createTurns(state: ConversationState, deps: TurnDeps): Turns {
  const { emit, save } = deps

  async function play(step: ChatStepResult, signal: AbortSignal): Promise<void> {
    for (const log of step.logs ?? []) {
      emit('flowchat:log', { status: log.status, description: log.description, details: log.details, source: 'service', code: 'service-log' })
    }
    if (step.dynamicTheme) {
      state.avatars = {
        host: step.dynamicTheme.hostAvatarUrl ?? state.avatars.host,
        guest: step.dynamicTheme.guestAvatarUrl ?? state.avatars.guest,
      }
    }
    if (typeof step.progress === 'number' && Number.isFinite(step.progress)) {
      state.progress.value = Math.min(100, Math.max(0, step.progress))
    }
    const { sleep } = deps
    const outcome = await playStep(orderStep(step.messages ?? [], step.clientSideActions ?? []), {
      signal,
      sleep,
      emit,
      typing: typingSettings(state.publishedFlow.peek()?.settings),
      isFirstBubble: () => state.bubblesShown === 0,
      setTyping: (on) => (state.typing.value = on),
      show: (message) => {
        append(state, hostEntry(message, state.avatars.host))
        state.bubblesShown++
      },
      runAction: (action) => runClientAction(action, deps.runners, { signal, sleep, emit, navigate: deps.navigate }),
    })
    if (outcome.halt) return save()
    if (outcome.reply !== undefined) return deliver({ message: outcome.reply, key: deps.newKey(), entry: null, answered: null }, signal)
    if (step.input) showInput(state, step.input)
    else {
      state.phase.value = 'ended'
      emit('flowchat:end', {})
    }
    save()
  }

  async function deliver(reply: Pending, signal: AbortSignal): Promise<void> {
    state.pending = reply
    // Before the request: a reload while it is in flight resends it (same key, applied once).
    save({ reply })
    const { entry } = reply
    batch(() => {
      state.failure.value = null
      state.phase.value = 'active'
      if (entry) {
        entry.status.value = 'sending'
        entry.error.value = null
      }
    })
    let step: ChatStepResult
    try {
      step = await deps.client.continueChat(state.session.id, reply.message, reply.key, signal)
    } catch (error) {
      if (signal.aborted || (isTransportError(error) && error.kind === 'aborted')) throw error
      if (state.session.resumed && isSessionGone(error)) return deps.sessionGone(signal)
      const detail = describeFailure(error)
      emit('flowchat:error', detail)
      const retryable = isTransportError(error) && error.retryable
      batch(() => {
        if (retryable) {
          // `pending` stays: retry() sends it again, with the same idempotency key.
          if (!entry) return fail(state, detail, 'resend')
          entry.status.value = 'failed'
          entry.error.value = detail.message
          return
        }
        state.pending = null
        if (entry) entry.status.value = 'rejected'
        if (isRejection(error) && reply.answered) {
          // Refused (too long, invalid): say why under the answer and give the input back.
          if (entry) entry.error.value = detail.message
          showInput(state, reply.answered.input, reply.message)
          save()
        } else {
          fail(state, detail, 'restart')
        }
      })
      return
    }
    state.pending = null
    state.session.resumed = false
    if (entry) {
      batch(() => {
        entry.status.value = 'sent'
        if (step.lastMessageNewFormat) entry.text.value = step.lastMessageNewFormat
      })
    }
    emit('flowchat:answer', { message: reply.message })
    save({ step })
    await play(step, signal)
  }

  return { play, deliver }
}
