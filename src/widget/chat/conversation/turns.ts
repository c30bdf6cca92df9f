import { batch } from '@preact/signals-core'
import type { ChatMessage, ChatStepResult } from '../../../protocol/index'
import { type FlowClient, isOffline, isTransportError, type Sleep, whenOnline } from '../../transport/index'
import { type ActionContext, type ActionRunners, type Navigate, runClientAction, runnerFor } from '../actions/runners'
import { type Emit, widgetWarning } from '../events/events'
import { describeFailure, isAborted, isRejection, isSessionGone } from '../events/failures'
import type { ConversationState } from '../state/conversation-state'
import { hostEntry, type StreamedAnswer } from '../state/entries'
import { orderStep } from '../state/sequence'
import type { Next, Pending } from '../state/stage'
import { announceEnd } from '../state/transcript'
import { playStep } from './player'
import { typingSettings } from './typing'

/** What one conversation's turns need besides its state. */
export interface TurnContext {
  client: FlowClient
  emit: Emit
  sleep: Sleep
  runners: ActionRunners
  navigate: Navigate
  newKey(): string
}

/** Plays a step the service sent: its logs, avatars and progress, bubbles and actions, then its input or the end. */
export async function playTurn(state: ConversationState, context: TurnContext, step: ChatStepResult, signal: AbortSignal): Promise<Next> {
  const { emit, runners } = context
  for (const log of step.logs ?? []) {
    emit('flowchat:log', { status: log.status, description: log.description, details: log.details, source: 'service', code: 'service-log' })
  }
  state.applyStep(step)
  // Actions whose code loads lazily are requested now, while the bubbles before them play.
  for (const action of step.clientSideActions ?? []) runnerFor(runners, action.type)?.preload?.()
  const showHost = (message: ChatMessage, stream?: StreamedAnswer) => {
    const entry = hostEntry(message, state.avatars.peek().host, false, stream)
    state.transcript.append(entry)
    return entry
  }
  const playing = (typing = false) => state.enter({ tag: 'playing', step, typing })
  playing()
  const outcome = await playStep(orderStep(step.messages ?? [], step.clientSideActions ?? []), {
    ...context,
    signal,
    typing: typingSettings(state.publishedFlow.peek()?.settings),
    isFirstBubble: () => state.transcript.hostCount === 0,
    setTyping: playing,
    show: showHost,
    runAction: async (action) => {
      state.enter({ tag: runnerFor(runners, action.type)?.stage ?? 'running-action', step, action })
      // The turn's context (client, emit, sleep, navigate) and this step's.
      const actionContext: ActionContext = {
        ...context,
        signal,
        sessionId: state.session.peek().id,
        showStream: showHost,
        transcript: state.transcript,
        keep: state.keep,
        present: (live) => state.enter({ tag: 'running-action', step, action, live }),
      }
      const result = await runClientAction(action, runners, actionContext)
      // A step the flow went on to (a webhook came, a person ended the chat) is played next, and
      // saved as such: this one, played again after a reload, would show its bubbles twice.
      if (!result.step) playing()
      return result
    },
  })
  if (outcome.halt) {
    state.enter({ tag: 'redirected' })
    return null
  }
  if (outcome.reply !== undefined) return { deliver: { message: outcome.reply, key: context.newKey(), entry: null, answered: null } }
  if (outcome.step) return { play: outcome.step }
  if (step.input) state.showInput(step.input)
  else {
    state.enter({ tag: 'ended' })
    announceEnd(state.transcript, emit)
  }
  return null
}

/**
 * Sends an answer (or an action's reply) with its idempotency key; the step that comes back plays
 * next. While the browser is offline it is not sent but kept, waiting for the network (see
 * `waitForNetwork`).
 */
export async function deliverTurn(state: ConversationState, context: TurnContext, reply: Pending, signal: AbortSignal): Promise<Next> {
  const { entry } = reply
  batch(() => {
    // Entering `sending` saves it first: a reload while it is in flight resends it, applied once.
    state.enter({ tag: 'sending', reply })
    if (entry) {
      entry.status.value = 'sending'
      entry.error.value = null
    }
  })
  // Saving it found a newer record of another tab, which this one now shows: nothing to send.
  signal.throwIfAborted()
  if (isOffline()) return waitForNetwork(context, reply, signal)
  let step: ChatStepResult
  try {
    step = await context.client.continueChat(state.session.peek().id, reply.message, reply.key, signal)
  } catch (error) {
    if (isAborted(error, signal)) throw error
    // The connection went while it was on its way: whether or not it arrived, it is sent again
    // under its key when the network is back, and applied once.
    if (isOffline()) return waitForNetwork(context, reply, signal)
    return reply.failed ? reply.failed(error) : turnFailed(state, context, reply, error)
  }
  state.confirm()
  if (entry) {
    batch(() => {
      entry.status.value = 'sent'
      if (step.lastMessageNewFormat) entry.text.value = step.lastMessageNewFormat
    })
  }
  // A command or a streamed answer's continuation is no answer of the visitor's.
  if (typeof reply.message === 'string') context.emit('flowchat:answer', { message: reply.message })
  return { play: step }
}

/**
 * An answer that cannot go while the browser is offline: its bubble says it waits for the network
 * (not an error), the chat stays `sending` (saved as such: a reload sends it, or waits again), the
 * input waits with it (the next step needs the service), and it goes once the network is back.
 */
async function waitForNetwork(context: TurnContext, reply: Pending, signal: AbortSignal): Promise<Next> {
  if (reply.entry) reply.entry.status.value = 'waiting'
  context.emit(
    'flowchat:log',
    widgetWarning('waiting-for-network', 'The browser is offline: the answer is kept and sent when it is back online'),
  )
  await whenOnline(signal)
  return { deliver: reply }
}

/** The service took another answer under this input's key: another tab of this conversation answered the step first. */
const answeredElsewhere = (error: unknown, reply: Pending) =>
  reply.answered !== null && isTransportError(error) && error.status === 409 && error.code === 'conflict'

/** What follows when the service did not take `reply`: the failure the visitor sees, with its way out. */
export function turnFailed(
  state: ConversationState,
  context: TurnContext,
  reply: Pending,
  error: unknown,
  failure = describeFailure(error),
): Next {
  const { entry } = reply
  if (state.session.peek().resumed && isSessionGone(error)) return { startOver: 'expired' }
  if (answeredElsewhere(error, reply)) return { catchUp: reply }
  context.emit('flowchat:error', failure.detail)
  batch(() => {
    if (isTransportError(error) && error.retryable) {
      // Still owed: retry() sends it again, with the same idempotency key.
      if (entry) {
        entry.status.value = 'failed'
        entry.error.value = failure.words
      }
      return state.fail(failure, 'resend', reply)
    }
    if (entry) entry.status.value = 'rejected'
    if (isRejection(error) && reply.answered) {
      // Refused (too long, invalid): say why under the answer and give the input back.
      if (entry) entry.error.value = failure.words
      return state.showInput(reply.answered)
    }
    state.fail(failure, 'restart')
  })
  return null
}
