import { MAX_WAIT_SECONDS } from '../../../protocol/time-limits'
import { LINK_SCHEMES, safeUrl, WEB_SCHEMES } from '../../content/url'
import { scriptReply } from '../../sandbox/reply'
import type { ScriptFailureReason, ScriptOutcome, ScriptToRun } from '../../sandbox/types'
import { type DiagnosticCode, widgetWarning } from '../events/events'
import { actionPayload } from './action-payload'
import type { ActionRunner } from './runners'

/**
 * The runners of the contract's client actions (redirect, wait, an HTTP request from the
 * visitor's browser, the wait for a webhook, and the report of a script that cannot run), and the
 * one the element builds around its sandbox: a chunk of their own, requested when a step brings
 * an action.
 */
export { httpRequest } from './http-request-action'
export { listenForWebhook } from './webhook-wait'

/**
 * A redirect to the web (in this tab, which then leaves: nothing more plays) or to the visitor's
 * mail, phone or messaging app (the page stays).
 */
export const redirect: ActionRunner = (action, { emit, navigate }) => {
  const payload = actionPayload(action, 'redirect')
  const url = safeUrl(payload?.url, LINK_SCHEMES)
  if (!url) {
    emit('flowchat:log', widgetWarning('unsafe-url', 'A redirect to a missing or unsafe URL was skipped', { url: payload?.url }))
    return {}
  }
  // For a web page (not a mail, phone or text app).
  const web = safeUrl(url, WEB_SCHEMES) !== null
  const newTab = web && payload?.isNewTab === true
  navigate(url, newTab)
  return web && !newTab ? { halt: true } : {}
}

export const wait: ActionRunner = async (action, { sleep, signal }) => {
  const seconds = Number(actionPayload(action, 'wait')?.secondsToWaitFor ?? 0)
  const clamped = Number.isFinite(seconds) ? Math.min(Math.max(seconds, 0), MAX_WAIT_SECONDS) : 0
  await sleep(clamped * 1000, signal)
  return {}
}

/** Until the sandbox exists, a script is reported and never run in the host page. */
export const scriptNotSupported: ActionRunner = (_action, { emit }) => {
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
    const script = actionPayload(action, 'scriptToExecute')
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
