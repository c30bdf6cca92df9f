import { batch } from '@preact/signals'
import { MAX_MESSAGE_LENGTH, type ChatInput, type PublishedFlow } from '../../protocol/index'
import { isTransportError, newIdempotencyKey, sleep as defaultSleep } from '../transport/index'
import { DEFAULT_ACTION_RUNNERS } from './actions'
import { append, clearState, createState, fail, showInput, snapshot } from './conversation-state'
import type { ActiveInput, Conversation, ConversationOptions, RestartReason } from './conversation-types'
import { guestEntry } from './entries'
import { widgetWarning, type FlowChatErrorDetail } from './events'
import { describeFailure } from './failures'
import { readSaved, rememberStorage, restoreEntries, type SavedConversation } from './saved-conversation'
import { createTurns, type TurnDeps } from './turns'
import { startRequest } from './variables'

export function createConversation(options: ConversationOptions): Conversation {
  const { client, emit, memory } = options
  const newKey = options.newKey ?? newIdempotencyKey
  const state = createState()
  const { phase, publishedFlow, input, failure, notice } = state

  let controller = new AbortController()
  let disposed = false

  /** Checkpoint for a reload, when the flow remembers users (see snapshot). */
  const save: TurnDeps['save'] = (at = {}) => {
    const { storage, id } = state.session
    if (memory && storage && id) memory.save(storage, snapshot(state, at))
  }

  const turns = createTurns(state, {
    client,
    emit,
    sleep: options.sleep ?? defaultSleep,
    runners: options.actions ?? DEFAULT_ACTION_RUNNERS,
    navigate: options.navigate ?? (() => {}),
    newKey,
    save,
    sessionGone: (signal) => startOver('expired', signal),
  })

  /** Runs an async task of the current conversation; cancellation is silent, anything else shown. */
  const run = (task: (signal: AbortSignal) => Promise<void>) => {
    const { signal } = controller
    task(signal).catch((error: unknown) => {
      if (signal.aborted || (isTransportError(error) && error.kind === 'aborted')) return
      const detail = describeFailure(error)
      emit('flowchat:error', detail)
      fail(state, detail, 'restart')
    })
  }

  const fetchPublished = async (flow: string, signal: AbortSignal) => {
    const { publishedFlow: version } = await client.getPublishedFlow(flow, signal)
    publishedFlow.value = version
    emit('flowchat:ready', { flowId: version.flowId, publishedFlowId: version.id, updatedAt: version.updatedAt })
    return version
  }

  function start() {
    if (disposed || phase.peek() !== 'idle') return
    phase.value = 'loading'
    run(async (signal) => {
      const flow = options.flow.trim()
      if (!flow) {
        const detail: FlowChatErrorDetail = { code: 'missing-flow', message: 'This chat has no flow to run.', retryable: false }
        emit('flowchat:error', detail)
        return fail(state, detail, 'none')
      }
      const saved = readSaved(memory, emit)
      if (!saved) return begin(signal)
      // A remembered conversation goes on only with the flow version it started on.
      const published = await fetchPublished(flow, signal)
      const storage = rememberStorage(published.settings)
      if (!storage) return begin(signal, { published })
      if (saved.publishedAt !== published.updatedAt) return startOver('republished', signal, saved.resultId, published)
      await resume(saved, storage, signal)
    })
  }

  /** A new session; the published flow is fetched beside startChat unless already in hand. */
  async function begin(
    signal: AbortSignal,
    known: { published?: PublishedFlow; resultId?: string; reason?: RestartReason } = {},
  ): Promise<void> {
    const flow = options.flow.trim()
    const request = startRequest(options.prefilledVariables, known.resultId, emit)
    const [published, started] = await Promise.all([
      known.published ?? fetchPublished(flow, signal),
      client.startChat(flow, request, signal),
    ])
    const storage = rememberStorage(published.settings)
    if (!storage) memory?.clear()
    state.session = { id: started.sessionId, resultId: started.resultId, publishedAt: started.publishedAt, storage, resumed: false }
    emit('flowchat:start', {
      sessionId: started.sessionId,
      resultId: started.resultId,
      resumed: false,
      ...(known.reason && { restartedBecause: known.reason }),
    })
    if (started.publishedAt !== published.updatedAt) {
      // The flow was republished between the two requests: its theme and settings changed.
      try {
        await fetchPublished(flow, signal)
      } catch (error) {
        if (signal.aborted) throw error
        emit('flowchat:log', widgetWarning('theme-refresh-failed', 'The updated theme could not be loaded; the previous one stays', { error: String(error) }))
      }
    }
    phase.value = 'active'
    save({ step: started })
    await turns.play(started, signal)
  }

  /** Shows the remembered conversation again and carries on from where it stood. */
  async function resume(saved: SavedConversation, storage: 'session' | 'local', signal: AbortSignal): Promise<void> {
    state.session = { id: saved.sessionId, resultId: saved.resultId, publishedAt: saved.publishedAt, storage, resumed: true }
    state.avatars = { ...saved.avatars }
    const { entries, lastGuest } = restoreEntries(saved)
    batch(() => {
      for (const entry of entries) append(state, entry)
      state.bubblesShown = entries.filter((entry) => entry.kind === 'host').length
      state.progress.value = saved.progress
      phase.value = 'active'
    })
    emit('flowchat:start', { sessionId: saved.sessionId, resultId: saved.resultId, resumed: true })
    const answered = (chatInput: ChatInput | undefined): ActiveInput | null =>
      chatInput ? { input: chatInput, key: ++state.inputCount, draft: undefined } : null
    if (saved.pending) {
      const { message, key, shown, input: chatInput } = saved.pending
      return turns.deliver({ message, key, entry: shown ? lastGuest : null, answered: answered(chatInput) }, signal)
    }
    if (saved.step) return turns.play(saved.step, signal)
    if (saved.input) return showInput(state, saved.input.input, saved.input.draft)
    if (saved.ended) {
      phase.value = 'ended'
      return
    }
    // Saved after something that cannot be replayed (a redirect away): begin again.
    return startOver(null, signal, saved.resultId)
  }

  /**
   * Replaces the remembered conversation with a new one for the same visitor (result): its flow
   * was republished, or the service no longer has its session.
   */
  function startOver(reason: RestartReason | null, signal: AbortSignal, resultId = state.session.resultId, published?: PublishedFlow) {
    memory?.clear()
    clearState(state)
    batch(() => {
      notice.value = reason
      phase.value = 'loading'
    })
    return begin(signal, { published, resultId, reason: reason ?? undefined })
  }

  return {
    phase,
    publishedFlow,
    transcript: state.transcript,
    typing: state.typing,
    input,
    progress: state.progress,
    failure,
    notice,
    start,
    send(message, label) {
      const active = input.peek()
      if (disposed || !active || state.pending || message.length > MAX_MESSAGE_LENGTH) return false
      const entry = guestEntry(label?.trim() ? label : message, state.avatars.guest)
      batch(() => {
        input.value = null
        append(state, entry)
      })
      run((signal) => turns.deliver({ message, key: newKey(), entry, answered: active }, signal))
      return true
    },
    retry() {
      const reply = state.pending
      if (disposed || !reply) return
      if (reply.entry ? reply.entry.status.peek() !== 'failed' : failure.peek()?.recovery !== 'resend') return
      run((signal) => turns.deliver(reply, signal))
    },
    restart() {
      if (disposed) return
      controller.abort()
      controller = new AbortController()
      memory?.clear()
      clearState(state)
      phase.value = 'idle'
      start()
    },
    dispose() {
      disposed = true
      controller.abort()
      state.typing.value = false
    },
  }
}
