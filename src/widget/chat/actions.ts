import type { ClientAction } from '../../protocol/index'
import { MAX_WAIT_SECONDS } from '../../protocol/time-limits'
import { LINK_SCHEMES, isWebUrl, safeUrl } from '../content/url'
import { isTransportError, type FlowClient, type Sleep } from '../transport/index'
import { scriptReply } from '../sandbox/reply'
import type { ScriptFailureReason, ScriptOutcome, ScriptToRun } from '../sandbox/types'
import { widgetWarning, type DiagnosticCode, type Emit } from './events'

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
}

export interface ActionOutcome {
  /** Sent as the next message when the action `expectsDedicatedReply`. */
  reply?: string
  /** The page is going away (same-tab redirect): play nothing more. */
  halt?: boolean
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
  Object.prototype.hasOwnProperty.call(runners, type) ? runners[type] : undefined

/**
 * A redirect to the web (in this tab, which then leaves: nothing more plays) or to the visitor's
 * mail, phone or messaging app (the page stays).
 */
const redirect: ActionRunner = (action, { emit, navigate }) => {
  const url = safeUrl(action.redirect?.url, LINK_SCHEMES)
  if (!url) {
    emit('flowchat:log', widgetWarning('unsafe-url', 'A redirect to a missing or unsafe URL was skipped', { url: action.redirect?.url }))
    return {}
  }
  const web = isWebUrl(url)
  const newTab = web && action.redirect?.isNewTab === true
  navigate(url, newTab)
  return web && !newTab ? { halt: true } : {}
}

const wait: ActionRunner = async (action, { sleep, signal }) => {
  const seconds = Number(action.wait?.secondsToWaitFor ?? 0)
  const clamped = Number.isFinite(seconds) ? Math.min(Math.max(seconds, 0), MAX_WAIT_SECONDS) : 0
  await sleep(clamped * 1000, signal)
  return {}
}

/** Until the sandbox exists, a script is reported and never run in the host page. */
const scriptNotSupported: ActionRunner = (_action, { emit }) => {
  emit('flowchat:log', {
    ...widgetWarning('script-not-supported', 'This flow asked to run a script; scripts are not supported in this build, so it was skipped'),
    status: 'error',
  })
  return {}
}

/**
 * Runs a flow script somewhere isolated from the page and resolves with its outcome (never
 * rejects). The element provides the sandboxed iframe runner; `chat` itself stays free of DOM code.
 */
export type RunScript = (script: ScriptToRun, signal: AbortSignal) => Promise<ScriptOutcome>

const SCRIPT_FAILURE_CODES: Readonly<Record<ScriptFailureReason, DiagnosticCode>> = {
  error: 'script-failed',
  timeout: 'script-timeout',
  too_large: 'script-too-large',
  unavailable: 'script-unavailable',
}

/**
 * `scriptToExecute` through `runScript`. A failed script is reported (a log entry and an error
 * event, neither of which stops the chat) and, when the flow waits for it, replies the empty
 * string, so the conversation goes on.
 */
export function scriptActionRunner(runScript: RunScript): ActionRunner {
  return async (action, { emit, signal }) => {
    const script = action.scriptToExecute
    const outcome: ScriptOutcome = script
      ? await runScript({ content: script.content, args: (script.args ?? []).map(({ id, value }) => ({ id, value })) }, signal)
      : { ok: false, reason: 'error', message: 'The script action has no script' }
    // Restarted or removed meanwhile: the outcome belongs to a conversation that is gone.
    signal.throwIfAborted()
    if (!outcome.ok) {
      const code = SCRIPT_FAILURE_CODES[outcome.reason] ?? 'script-failed'
      const description = `A flow script did not complete (${outcome.reason}): ${outcome.message}`
      emit('flowchat:log', { status: 'error', description, details: { reason: outcome.reason }, source: 'widget', code })
      emit('flowchat:error', { code, message: description, retryable: false, details: { reason: outcome.reason } })
    }
    return action.expectsDedicatedReply === true ? { reply: scriptReply(outcome) } : {}
  }
}

export const DEFAULT_ACTION_RUNNERS: ActionRunners = { redirect, wait, scriptToExecute: scriptNotSupported }

/**
 * Runs `action` with its registered runner. Unknown types and failing runners are logged and
 * skipped; an action that expects a dedicated reply then gets the empty string, as the contract
 * prescribes for a failed script, so the flow never stalls waiting for it.
 */
export async function runClientAction(
  action: ClientAction,
  runners: ActionRunners,
  context: ActionContext,
): Promise<ActionOutcome> {
  const runner = runnerFor(runners, action.type)
  let outcome: ActionOutcome = {}
  if (!runner) {
    context.emit('flowchat:log', widgetWarning('unknown-action', `Unknown client action type "${action.type}" was skipped`))
  } else {
    try {
      outcome = await runner(action, context)
    } catch (error) {
      if (context.signal.aborted || (isTransportError(error) && error.kind === 'aborted')) throw error
      context.emit('flowchat:log', {
        ...widgetWarning('action-failed', `The ${action.type} action failed`, { error: String(error) }),
        status: 'error',
      })
    }
  }
  if (action.expectsDedicatedReply === true && outcome.reply === undefined && !outcome.halt) {
    return { ...outcome, reply: '' }
  }
  return outcome
}
