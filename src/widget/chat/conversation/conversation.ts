import { computed } from '@preact/signals-core'
import { MAX_MESSAGE_LENGTH } from '../../../protocol/chat'
import { type ChatSettings, sleep as defaultSleep, newIdempotencyKey, type PublishedFlow } from '../../transport/index'
import { DEFAULT_ACTION_RUNNERS, SCRIPTS_NOT_SUPPORTED } from '../actions/built-in'
import { runnerFor } from '../actions/runners'
import { isSetUpMistake, widgetWarning } from '../events/events'
import { describeFailure, isAborted, noFlowNamed, refuseCommand } from '../events/failures'
import type { RememberHost } from '../memory/remembered'
import { createState } from '../state/conversation-state'
import { guestEntry } from '../state/entries'
import type { Next, RestartReason } from '../state/stage'
import type { Commands } from './commands'
import type { Conversation, ConversationOptions, TextAnswer } from './conversation-types'
import { deliverTurn, playTurn, type TurnContext } from './turns'
import { startRequest } from './variables'

/** Where the flow wants conversations remembered, if at all. */
function rememberStorage(settings: ChatSettings | null | undefined): 'session' | 'local' | undefined {
  const remember = settings?.general?.rememberUser
  if (remember?.isEnabled !== true) return undefined
  return remember.storage === 'local' ? 'local' : 'session'
}

/** Remembering conversations is a chunk of its own (see remembered.ts), and so are commands (commands.ts). */
const loadRemembered = () => import('../memory/remembered')
type Remembered = Awaited<ReturnType<typeof loadRemembered>>

/**
 * One conversation's lifecycle: start (or resume what storage remembers), then turns until the
 * visitor's turn or the end; restart, retry, dispose. Turns report what comes next as a value and
 * this loop carries it out, so neither calls the other back.
 */
export function createConversation(options: ConversationOptions): Conversation {
  const { client, emit, memory } = options
  const newKey = options.newKey ?? newIdempotencyKey
  const state = createState(newKey)
  const { stage, publishedFlow } = state
  const context: TurnContext = {
    client,
    emit,
    sleep: options.sleep ?? defaultSleep,
    runners: { ...SCRIPTS_NOT_SUPPORTED, ...(options.actions ?? DEFAULT_ACTION_RUNNERS) },
    navigate: options.navigate ?? (() => {}),
    newKey,
  }

  let controller = new AbortController()
  let disposed = false
  let commands: Promise<Commands> | undefined
  /** What the remembered-conversations chunk needs to go on from storage, start over, or follow another tab. */
  const host: RememberHost = { state, emit, memory, begin, stop: () => stop() }
  /** Stops following what the conversation's other tabs save. */
  let unwatch: (() => void) | undefined
  /** Saves the conversation from now on, and follows its other tabs (tab-sync.ts). */
  const remember = (chunk: Remembered) => {
    state.saveWith(chunk.saverFor(host))
    unwatch ??= chunk.keepInStep(host)
  }

  /**
   * What the visitor sees when the conversation cannot go on: the failure, and starting over; a
   * set-up mistake only says the chat is not set up (starting over would meet it again).
   */
  const fail = (error: unknown, failure = describeFailure(error)) => {
    emit('flowchat:error', failure.detail)
    state.fail(failure, isSetUpMistake(failure.detail.code) ? 'none' : 'restart')
  }

  /** Runs an async task of the current conversation; cancellation is silent, anything else shown. */
  const run = (task: (signal: AbortSignal) => Promise<Next>) => {
    const { signal } = controller
    task(signal)
      .then((next) => drive(next, signal))
      .catch((error: unknown) => {
        if (!isAborted(error, signal)) fail(error)
      })
  }

  /** Stops the current conversation's tasks (a webhook wait, a turn); what runs next gets a new signal. */
  const stop = () => {
    controller.abort()
    controller = new AbortController()
  }
  const cancelCommands = () =>
    void commands?.then(
      (queue) => queue.cancel(),
      () => {},
    )

  async function drive(next: Next, signal: AbortSignal): Promise<void> {
    while (next) {
      if ('play' in next) next = await playTurn(state, context, next.play, signal)
      else if ('deliver' in next) next = await deliverTurn(state, context, next.deliver, signal)
      else if ('catchUp' in next) next = (await loadRemembered()).catchUp(host, next.catchUp)
      else next = await (await loadRemembered()).startOver(host, next.startOver, signal)
    }
  }

  const fetchPublished = async (flow: string, signal: AbortSignal, fresh = false) => {
    const { publishedFlow: version } = await client.getPublishedFlow(flow, signal, { fresh })
    // The themed shell paints as soon as the theme is in, whether or not startChat is.
    state.receivePublished(version)
    // A flow that remembers users: its saving code is requested now, beside startChat; so is the
    // code of the actions its blocks bring (a handoff to a person, an AI answer).
    if (memory && rememberStorage(version.settings)) void loadRemembered().catch(() => {})
    for (const kind of version.blockKinds ?? []) runnerFor(context.runners, kind)?.preload?.()
    emit('flowchat:ready', { flowId: version.flowId, publishedFlowId: version.id, updatedAt: version.updatedAt })
    return version
  }

  async function opening(signal: AbortSignal): Promise<Next> {
    const flow = options.flow.trim()
    if (!flow) {
      fail(null, noFlowNamed())
      return null
    }
    // This page already met a set-up mistake reading the flow (a launcher did): no session starts on it.
    const refused = client.refusal(flow)
    if (refused) throw refused
    const data = memory?.load()
    if (!memory || data === undefined || data === null) return begin(signal)
    const [remembered, published] = await Promise.all([loadRemembered(), fetchPublished(flow, signal)])
    remember(remembered)
    return remembered.reopen(host, data, published, rememberStorage(published.settings), signal)
  }

  /** A new session: startChat and the published flow (unless already in hand) in parallel. */
  async function begin(
    signal: AbortSignal,
    known: { published?: PublishedFlow; resultId?: string; reason?: RestartReason } = {},
  ): Promise<Next> {
    const flow = options.flow.trim()
    const request = startRequest(options.prefilledVariables, known.resultId, emit, options.user, known.reason === 'requested')
    // startChat first: a cross-origin JSON POST waits for its preflight, one round trip more.
    const starting = client.startChat(flow, request, signal)
    const [published, started] = await Promise.all([known.published ?? fetchPublished(flow, signal), starting])
    const storage = rememberStorage(published.settings)
    if (!storage) memory?.clear()
    else if (memory) remember(await loadRemembered())
    // The service found the user's conversation expired: a new one, and the visitor is told.
    const reason = known.reason ?? started.restartedBecause
    if (reason && !known.reason) state.startOver(reason)
    state.open({ id: started.sessionId, resultId: started.resultId, publishedAt: started.publishedAt, storage, resumed: false })
    emit('flowchat:start', {
      sessionId: started.sessionId,
      resultId: started.resultId,
      resumed: !!started.resumed,
      ...(reason && { restartedBecause: reason }),
    })
    if (started.publishedAt !== published.updatedAt) {
      // The theme in hand is not the version this session runs on: it was republished meanwhile.
      try {
        await fetchPublished(flow, signal, true)
      } catch (error) {
        if (signal.aborted) throw error
        emit(
          'flowchat:log',
          widgetWarning('theme-refresh-failed', 'The updated theme could not be loaded; the previous one stays', { error: String(error) }),
        )
      }
    }
    return { play: started }
  }

  const input = computed(() => {
    const current = stage.value
    return current.tag === 'waiting-input' ? current.input : null
  })

  function start() {
    if (disposed || stage.peek().tag !== 'idle') return
    state.enter({ tag: 'loading' })
    run(opening)
  }

  function send(message: string | TextAnswer | null, label?: string): boolean {
    const active = input.peek()
    const text = typeof message === 'string' ? message : (message?.text ?? '')
    if (disposed || !active || text.length > MAX_MESSAGE_LENGTH) return false
    const entry = guestEntry(label?.trim() ? label : text, state.avatars.peek().guest)
    if (typeof message === 'string') state.noteAnswer(active.input.id, message)
    state.transcript.append(entry)
    // Under the input's own key: the same step answered from another tab is refused by the service.
    run((signal) => deliverTurn(state, context, { message, key: active.answerKey, entry, answered: active.input }, signal))
    return true
  }

  return {
    stage,
    publishedFlow,
    transcript: state.transcript,
    input,
    typing: computed(() => {
      const current = stage.value
      return current.tag === 'playing' && current.typing
    }),
    progress: state.progress,
    failure: computed(() => {
      const current = stage.value
      // An answer that failed shows its failure (and Retry) on its own bubble.
      return current.tag === 'failed' && !current.reply?.entry ? current.failure : null
    }),
    notice: state.notice,
    start,
    send,
    session: () => {
      const { id } = state.session.peek()
      return id ? { chat: client.chat, id } : undefined
    },
    keep: state.keep,
    setDraft(text) {
      const active = input.peek()
      if (disposed || !active) return false
      active.draft.value = String(text)
      return true
    },
    submitDraft() {
      const text = input.peek()?.draft.peek().trim()
      return Boolean(text) && send(text!)
    },
    retry() {
      const current = stage.peek()
      if (disposed || current.tag !== 'failed' || current.failure.recovery !== 'resend' || !current.reply) return
      const { reply } = current
      run((signal) => deliverTurn(state, context, reply, signal))
    },
    fail,
    command(name) {
      if (disposed) return refuseCommand(emit, name, 'the chat was removed')
      commands ??= import('./commands').then((chunk) => chunk.createCommands({ state, context, run, stop }))
      return commands.then(
        (queue) => queue.send(name),
        (error: unknown) => {
          commands = undefined
          return refuseCommand(emit, name, `its code could not be loaded (${String(error)})`)
        },
      )
    },
    reset(reason) {
      if (disposed) return
      cancelCommands()
      commands = undefined
      stop()
      memory?.clear()
      if (reason) {
        state.startOver(reason)
        run((signal) => begin(signal, { reason }))
        return
      }
      state.clear()
      state.enter({ tag: 'idle' })
      start()
    },
    dispose() {
      disposed = true
      unwatch?.()
      cancelCommands()
      controller.abort()
      const current = stage.peek()
      if (current.tag === 'playing' && current.typing) state.enter({ ...current, typing: false })
    },
  }
}
