import { REQUEST_TIMEOUT_MS, SCRIPT_TIMEOUT_MS } from '../../protocol/time-limits'
import { argNamesProblem } from './arg-names'
import { MAX_EVENT_PAYLOAD_CHARS, MAX_EVENTS_PER_RUN, MAX_RESULT_CHARS, MESSAGE_PREFIX } from './limits'
import { parseSandboxJson, type ResultMessage } from './messages'
import { NO_PAGE_ADDRESS } from './page-address'
import { openSandboxFrame, type RunReply, type SandboxFrame, SandboxUnavailableError } from './sandbox-frame'
import { sandboxDocumentUrl } from './sandbox-url'
import type { SandboxLogEntry, ScriptFailureReason, ScriptOutcome, ScriptRunner, ScriptRunnerOptions, ScriptToRun } from './types'

interface ActiveRun {
  runId: string
  events: number
  finish(outcome: ScriptOutcome): void
}

const failure = (reason: ScriptFailureReason, message: string): ScriptOutcome => ({ ok: false, reason, message })

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error))

function clampTimeout(value: number | undefined): number {
  if (value === undefined || !Number.isFinite(value)) return SCRIPT_TIMEOUT_MS.default
  return Math.min(Math.max(Math.round(value), SCRIPT_TIMEOUT_MS.min), SCRIPT_TIMEOUT_MS.max)
}

/** 128 random bits as hex; `crypto.randomUUID` would need a secure context, host pages may not be one. */
function newRunId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/** The result message of a run, as the outcome `run` resolves with. */
function outcomeOf(message: ResultMessage): ScriptOutcome {
  switch (message.status) {
    case 'ok':
      if (message.value === undefined) return { ok: true, value: undefined }
      if (message.value.length > MAX_RESULT_CHARS) {
        return failure('too_large', `The result is over the limit of ${MAX_RESULT_CHARS} characters as JSON`)
      }
      try {
        return { ok: true, value: parseSandboxJson(message.value) }
      } catch {
        return failure('error', 'The sandbox sent a result that is not JSON')
      }
    case 'too_large':
      return failure('too_large', message.message ?? `The result is over the limit of ${MAX_RESULT_CHARS} characters as JSON`)
    case 'unavailable':
      return failure('unavailable', message.message ?? 'The script sandbox could not run the script')
    default:
      return failure('error', message.message || 'The script failed')
  }
}

/**
 * Runs flow scripts in a hidden sandboxed iframe (created on the first run), one at a time. The
 * script itself runs in a Worker inside that frame, so a busy script never holds up the page; the
 * watchdog is here, on the page's side, and a script that outlives it takes its frame with it.
 */
export function createScriptRunner(options: ScriptRunnerOptions): ScriptRunner {
  const timeoutMs = clampTimeout(options.timeoutMs)
  const loadTimeoutMs = options.loadTimeoutMs !== undefined && options.loadTimeoutMs > 0 ? options.loadTimeoutMs : REQUEST_TIMEOUT_MS
  const allowNetwork = options.allowNetwork === true
  const doc = options.container.ownerDocument ?? (options.container as unknown as Document)
  const url = sandboxDocumentUrl(options.sandboxUrl, allowNetwork, doc.baseURI)
  let frame: SandboxFrame | undefined
  let blockedByCsp: string | undefined
  let active: ActiveRun | undefined
  let disposed = false
  let queue: Promise<unknown> = Promise.resolve()

  const log = (entry: SandboxLogEntry) => {
    try {
      options.onLog?.(entry)
    } catch {
      // A failing log handler must not take the run down with it.
    }
  }

  const dropFrame = () => {
    frame?.destroy()
    frame = undefined
  }

  function deliverEvent(run: ActiveRun, name: string, payloadJson: string) {
    if (run.events >= MAX_EVENTS_PER_RUN) return
    run.events++
    let payload: unknown
    try {
      payload = parseSandboxJson(payloadJson)
    } catch {
      log({ level: 'warning', code: 'sandbox-message-rejected', message: `The payload of event "${name}" is not JSON` })
      return
    }
    try {
      options.onHostEvent?.(name, payload)
    } catch (error) {
      log({
        level: 'warning',
        code: 'host-event-handler-failed',
        message: `Handling the script event "${name}" failed: ${describe(error)}`,
      })
    }
  }

  function onReply(message: RunReply) {
    const run = active
    if (!run || message.runId !== run.runId) return
    if (message.type === 'flow-chat-sandbox:event') {
      deliverEvent(run, message.name, message.payload)
      return
    }
    run.finish(outcomeOf(message))
    if (message.status === 'unavailable') dropFrame()
  }

  async function readyFrame(target: URL): Promise<SandboxFrame> {
    if (!frame?.alive) {
      dropFrame()
      frame = openSandboxFrame({
        container: options.container,
        url: target,
        loadTimeoutMs,
        onMessage: onReply,
        onRejected: (reason) =>
          log({ level: 'warning', code: 'sandbox-message-rejected', message: `A message from the script sandbox was dropped: ${reason}` }),
      })
    }
    const current = frame
    try {
      await current.ready
      return current
    } catch (error) {
      if (frame === current) dropFrame()
      if (error instanceof SandboxUnavailableError && error.blockedByCsp) blockedByCsp = error.message
      if (!disposed) {
        log({
          level: 'error',
          code: blockedByCsp === undefined ? 'sandbox-unavailable' : 'sandbox-blocked-by-csp',
          message: describe(error),
          details: { sandboxUrl: target.href },
        })
      }
      throw error
    }
  }

  async function execute(script: ScriptToRun): Promise<ScriptOutcome> {
    if (disposed) return failure('unavailable', 'The script runner was closed')
    if (typeof url === 'string') return failure('unavailable', url)
    const names = script.args.map((arg) => arg.id)
    const problem = argNamesProblem(names)
    if (problem !== undefined) return failure('error', problem)
    let values: string
    try {
      values = JSON.stringify(script.args.map((arg) => arg.value ?? null))
    } catch (error) {
      return failure('error', `The script arguments are not JSON values: ${describe(error)}`)
    }
    if (blockedByCsp !== undefined) return failure('unavailable', blockedByCsp)

    let current: SandboxFrame
    try {
      current = await readyFrame(url)
    } catch (error) {
      return failure('unavailable', describe(error))
    }
    if (disposed) return failure('unavailable', 'The script runner was closed')

    return new Promise<ScriptOutcome>((resolve) => {
      const runId = newRunId()
      const timer = setTimeout(() => {
        if (active?.runId !== runId) return
        active.finish(failure('timeout', `The script did not finish within ${timeoutMs} ms, so it was stopped`))
        // Removing the frame is what stops the Worker, however busy it is.
        dropFrame()
        log({ level: 'info', code: 'sandbox-restarted', message: 'A script ran out of time; the next one gets a fresh sandbox' })
      }, timeoutMs)
      active = {
        runId,
        events: 0,
        finish(outcome) {
          clearTimeout(timer)
          active = undefined
          resolve(outcome)
        },
      }
      current.post({
        type: `${MESSAGE_PREFIX}run`,
        runId,
        content: script.content,
        names,
        values,
        allowNetwork,
        limits: { resultChars: MAX_RESULT_CHARS, eventChars: MAX_EVENT_PAYLOAD_CHARS, events: MAX_EVENTS_PER_RUN },
        page: options.pageAddress?.() ?? NO_PAGE_ADDRESS,
      })
    })
  }

  return {
    run(script) {
      const outcome = queue.then(() => execute(script)).catch((error: unknown) => failure('error', describe(error)))
      queue = outcome
      return outcome
    },
    dispose() {
      if (disposed) return
      disposed = true
      active?.finish(failure('unavailable', 'The script runner was closed'))
      dropFrame()
    },
  }
}
