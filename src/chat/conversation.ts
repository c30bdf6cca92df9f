import { batch, signal } from '@preact/signals'
import {
  MAX_MESSAGE_LENGTH,
  type ChatInput,
  type ChatStepResult,
  type PublishedFlow,
  type StartChatRequest,
} from '../protocol/index'
import { isTransportError, newIdempotencyKey, sleep as defaultSleep } from '../transport/index'
import { DEFAULT_ACTION_RUNNERS, runClientAction } from './actions'
import type { ActiveInput, Conversation, ConversationOptions, Failure, Phase } from './conversation-types'
import { guestEntry, hostEntry, type GuestEntry } from './entries'
import { widgetWarning, type Emit, type FlowChatErrorDetail } from './events'
import { describeFailure, isRejection } from './failures'
import { playStep } from './player'
import { orderStep } from './sequence'
import { createTranscript } from './transcript'
import { typingSettings } from './typing'
import { cleanVariables } from './variables'

interface Pending {
  message: string
  key: string
  /** The bubble showing it; null for a client action's hidden reply. */
  entry: GuestEntry | null
  answered: ActiveInput | null
}

export function createConversation(options: ConversationOptions): Conversation {
  const { client, emit } = options
  const sleep = options.sleep ?? defaultSleep
  const runners = options.actions ?? DEFAULT_ACTION_RUNNERS
  const navigate = options.navigate ?? (() => {})
  const newKey = options.newKey ?? newIdempotencyKey

  const phase = signal<Phase>('idle')
  const publishedFlow = signal<PublishedFlow | null>(null)
  const transcript = createTranscript()
  const typing = signal(false)
  const input = signal<ActiveInput | null>(null)
  const progress = signal<number | null>(null)
  const failure = signal<Failure | null>(null)

  let controller = new AbortController()
  let disposed = false
  let sessionId = ''
  let pending: Pending | null = null
  let bubblesShown = 0
  let inputCount = 0
  let avatars: { host?: string; guest?: string } = {}

  const fail = (detail: FlowChatErrorDetail, recovery: Failure['recovery']) =>
    batch(() => {
      failure.value = { detail, recovery }
      phase.value = 'failed'
      typing.value = false
    })

  /** Runs an async task of the current conversation; cancellation is silent, anything else shown. */
  const run = (task: (signal: AbortSignal) => Promise<void>) => {
    const { signal } = controller
    task(signal).catch((error: unknown) => {
      if (signal.aborted || (isTransportError(error) && error.kind === 'aborted')) return
      const detail = describeFailure(error)
      emit('flowchat:error', detail)
      fail(detail, 'restart')
    })
  }

  const applyPublished = (flow: PublishedFlow) => {
    publishedFlow.value = flow
    emit('flowchat:ready', { flowId: flow.flowId, publishedFlowId: flow.id, updatedAt: flow.updatedAt })
  }

  const showInput = (chatInput: ChatInput, draft?: string) => {
    const prefill = publishedFlow.peek()?.settings?.general?.isInputPrefillEnabled !== false
    input.value = {
      input: chatInput,
      key: ++inputCount,
      draft: draft ?? (prefill ? (chatInput.prefilledValue ?? undefined) : undefined),
    }
  }

  async function handleStep(step: ChatStepResult, signal: AbortSignal): Promise<void> {
    for (const log of step.logs ?? []) {
      emit('flowchat:log', { status: log.status, description: log.description, details: log.details, source: 'service', code: 'service-log' })
    }
    if (step.dynamicTheme) {
      avatars = {
        host: step.dynamicTheme.hostAvatarUrl ?? avatars.host,
        guest: step.dynamicTheme.guestAvatarUrl ?? avatars.guest,
      }
    }
    if (typeof step.progress === 'number' && Number.isFinite(step.progress)) {
      progress.value = Math.min(100, Math.max(0, step.progress))
    }
    const outcome = await playStep(orderStep(step.messages ?? [], step.clientSideActions ?? []), {
      signal,
      sleep,
      emit,
      typing: typingSettings(publishedFlow.peek()?.settings),
      isFirstBubble: () => bubblesShown === 0,
      setTyping: (on) => (typing.value = on),
      show: (message) => {
        transcript.append(hostEntry(message, avatars.host))
        bubblesShown++
      },
      runAction: (action) => runClientAction(action, runners, { signal, sleep, emit, navigate }),
    })
    if (outcome.halt) return
    if (outcome.reply !== undefined) return deliver({ message: outcome.reply, key: newKey(), entry: null, answered: null }, signal)
    if (step.input) showInput(step.input)
    else {
      phase.value = 'ended'
      emit('flowchat:end', {})
    }
  }

  async function deliver(reply: Pending, signal: AbortSignal): Promise<void> {
    pending = reply
    const { entry } = reply
    batch(() => {
      failure.value = null
      phase.value = 'active'
      if (entry) {
        entry.status.value = 'sending'
        entry.error.value = null
      }
    })
    let step: ChatStepResult
    try {
      step = await client.continueChat(sessionId, reply.message, reply.key, signal)
    } catch (error) {
      if (signal.aborted || (isTransportError(error) && error.kind === 'aborted')) throw error
      const detail = describeFailure(error)
      emit('flowchat:error', detail)
      const retryable = isTransportError(error) && error.retryable
      batch(() => {
        if (retryable) {
          // `pending` stays: retry() sends it again, with the same idempotency key.
          if (!entry) return fail(detail, 'resend')
          entry.status.value = 'failed'
          entry.error.value = detail.message
          return
        }
        pending = null
        if (entry) entry.status.value = 'rejected'
        if (isRejection(error) && reply.answered) {
          // Refused (too long, invalid): say why under the answer and give the input back.
          if (entry) entry.error.value = detail.message
          showInput(reply.answered.input, reply.message)
        } else {
          fail(detail, 'restart')
        }
      })
      return
    }
    pending = null
    batch(() => {
      if (entry) {
        entry.status.value = 'sent'
        if (step.lastMessageNewFormat) entry.text.value = step.lastMessageNewFormat
      }
    })
    emit('flowchat:answer', { message: reply.message })
    await handleStep(step, signal)
  }

  function start() {
    if (disposed || phase.peek() !== 'idle') return
    phase.value = 'loading'
    run(async (signal) => {
      const flow = options.flow.trim()
      if (!flow) {
        const detail: FlowChatErrorDetail = { code: 'missing-flow', message: 'This chat has no flow to run.', retryable: false }
        emit('flowchat:error', detail)
        return fail(detail, 'none')
      }
      const { variables, dropped } = cleanVariables(options.prefilledVariables)
      if (dropped.length > 0) {
        emit('flowchat:log', widgetWarning('invalid-variables', 'Some prefilled variables were not strings, numbers or booleans and were left out', { dropped }))
      }
      const request: StartChatRequest = {}
      if (variables) request.prefilledVariables = variables
      if (options.resultId) request.resultId = options.resultId
      const [published, started] = await Promise.all([
        client.getPublishedFlow(flow, signal).then((response) => {
          applyPublished(response.publishedFlow)
          return response.publishedFlow
        }),
        client.startChat(flow, request, signal),
      ])
      sessionId = started.sessionId
      emit('flowchat:start', { sessionId: started.sessionId, resultId: started.resultId })
      options.onStarted?.(started.resultId, published.settings)
      if (started.publishedAt !== published.updatedAt) {
        // The flow was republished between the two requests: its theme and settings changed.
        try {
          applyPublished((await client.getPublishedFlow(flow, signal)).publishedFlow)
        } catch (error) {
          if (signal.aborted) throw error
          emit('flowchat:log', widgetWarning('theme-refresh-failed', 'The updated theme could not be loaded; the previous one stays', { error: String(error) }))
        }
      }
      phase.value = 'active'
      await handleStep(started, signal)
    })
  }

  function reset() {
    controller.abort()
    controller = new AbortController()
    sessionId = ''
    pending = null
    bubblesShown = 0
    avatars = {}
    transcript.clear()
    // The published flow stays: a restart of the same flow keeps its theme instead of flashing.
    batch(() => {
      phase.value = 'idle'
      typing.value = false
      input.value = null
      progress.value = null
      failure.value = null
    })
  }

  return {
    phase,
    publishedFlow,
    transcript,
    typing,
    input,
    progress,
    failure,
    start,
    send(message) {
      const active = input.peek()
      if (disposed || !active || pending || message.length > MAX_MESSAGE_LENGTH) return false
      const entry = guestEntry(message, avatars.guest)
      batch(() => {
        input.value = null
        transcript.append(entry)
      })
      run((signal) => deliver({ message, key: newKey(), entry, answered: active }, signal))
      return true
    },
    retry() {
      const reply = pending
      if (disposed || !reply) return
      if (reply.entry ? reply.entry.status.peek() !== 'failed' : failure.peek()?.recovery !== 'resend') return
      run((signal) => deliver(reply, signal))
    },
    restart() {
      if (disposed) return
      reset()
      start()
    },
    dispose() {
      disposed = true
      controller.abort()
      typing.value = false
    },
  }
}
