import type { ChatMessage, ChatStepResult, ClientAction } from '../../../protocol/index'
import { type FlowClient, isTransportError, type Sleep } from '../../transport/index'
import { type Emit, widgetWarning } from '../events/events'
import type { HostEntry, StreamedAnswer } from '../state/entries'
import type { LiveHandoff } from '../state/live-handoff'
import type { Transcript } from '../state/transcript'

/** Opens `url` in this tab or a new one (the element provides the browser's navigation). */
export type Navigate = (url: string, newTab: boolean) => void

export interface ActionContext {
  /** Aborted when the conversation is disposed or restarted. */
  signal: AbortSignal
  sleep: Sleep
  emit: Emit
  navigate: Navigate
  /** The flow service, for actions that talk to it (a streamed answer) … */
  client: FlowClient
  /** … about this conversation's session. */
  sessionId: string
  /** Adds a host bubble whose text `stream` brings (an AI answer). */
  showStream(message: ChatMessage, stream: StreamedAnswer): HostEntry
  /** The conversation so far (a handoff adds its lines, and reads what it showed before a reload). */
  transcript: Transcript
  /** Saves the conversation as it stands now, when the flow remembers users (a handoff's lines). */
  keep(): void
  /** Shows a handoff's live part while this action runs (the views read it from the stage). */
  present(live: LiveHandoff): void
}

export interface ActionOutcome {
  /**
   * Sent as the next message when the action `expectsDedicatedReply`; `null`: continue with no
   * message (the service recorded the answer itself, as for a stream).
   */
  reply?: string | null
  /** The page is going away (same-tab redirect): play nothing more. */
  halt?: boolean
  /** The flow went on without a reply from this page (a webhook came): this step plays next. */
  step?: ChatStepResult
}

/**
 * Runs one client action type. The registry is open: the element plugs in the sandboxed
 * `scriptToExecute` runner, and a runner whose code loads lazily (see `lazyRunner`) is requested as
 * soon as a step announces its action, before it is played.
 */
export type ActionRunner = ((action: ClientAction, context: ActionContext) => ActionOutcome | Promise<ActionOutcome>) & {
  /** Starts loading what the runner needs, so the action runs without waiting when its turn comes. */
  preload?(): void
  /** The stage the conversation is in while the action runs (default `running-action`). */
  stage?: 'running-action' | 'streaming'
}
export type ActionRunners = Readonly<Record<string, ActionRunner>>

/** A runner whose implementation is a lazily loaded chunk: requested on `preload`, or when run. */
export function lazyRunner(load: () => Promise<ActionRunner>, stage?: ActionRunner['stage']): ActionRunner {
  let loading: Promise<ActionRunner> | undefined
  const get = () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined
      throw error
    })
    return loading
  }
  const runner: ActionRunner = async (action, context) => (await get())(action, context)
  runner.preload = () => void get().catch(() => {})
  if (stage) runner.stage = stage
  return runner
}

/** The registered runner of an action type (own entries only: a type like "constructor" finds none). */
export const runnerFor = (runners: ActionRunners, type: string): ActionRunner | undefined =>
  Object.hasOwn(runners, type) ? runners[type] : undefined

/**
 * Runs `action` with its registered runner. Unknown types and failing runners are logged and
 * skipped; an action that expects a dedicated reply then gets the empty string, as the contract
 * prescribes for a failed script, so the flow never stalls waiting for it.
 */
export async function runClientAction(action: ClientAction, runners: ActionRunners, context: ActionContext): Promise<ActionOutcome> {
  const runner = runnerFor(runners, action.type)
  let outcome: ActionOutcome = {}
  if (!runner) {
    context.emit('flowchat:log', widgetWarning('unknown-action', `Unknown client action type "${action.type}" was skipped`))
  } else {
    try {
      outcome = await runner(action, context)
    } catch (error) {
      // A runner talking to the flow service (a webhook wait) fails the way a turn does.
      if (context.signal.aborted || isTransportError(error)) throw error
      context.emit('flowchat:log', {
        ...widgetWarning('action-failed', `The ${action.type} action failed`, { error: String(error) }),
        status: 'error',
      })
    }
  }
  if (action.expectsDedicatedReply === true && outcome.reply === undefined && !outcome.halt && !outcome.step) {
    return { ...outcome, reply: '' }
  }
  return outcome
}
