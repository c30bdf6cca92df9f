import { type RunScript, scriptActionRunner } from '../chat/actions/client-actions'
import type { ActionRunner, Emit } from '../chat/index'
import { createScriptRunner, readPageAddress, type ScriptOutcome, type ScriptRunner } from '../sandbox/index'

/** The element's script settings, read when a sandbox is made (the element itself, whose properties are live). */
export interface ScriptSettings {
  /** The sandbox document (`sandbox-url`), already defaulted. */
  readonly sandboxUrl: string
  /** `script-timeout` in ms (the runner keeps it within its bounds). */
  readonly scriptTimeout: number
  readonly allowScriptNetwork: boolean
  /** `page-address`: `shared` or `hidden`. */
  readonly pageAddress: string
}

export interface ScriptHost {
  run: RunScript
  /** The `scriptToExecute` runner of this element's conversation (through `run`). */
  runner: ActionRunner
  /** Removes the sandbox frame; the next script creates a fresh runner with current settings. */
  dispose(): void
}

const closed: ScriptOutcome = { ok: false, reason: 'unavailable', message: 'The conversation ended before the script ran' }

/**
 * Connects `scriptToExecute` to the sandboxed iframe runner for one element. The runner is made on
 * the first script (a flow without scripts never loads the sandbox) and belongs to the
 * conversation whose abort signal it was made for: a restart or a removal aborts that signal,
 * which removes the frame and stops any script still running.
 */
export function createScriptHost(container: ShadowRoot, emit: Emit, settings: ScriptSettings): ScriptHost {
  let runner: ScriptRunner | undefined
  let owner: AbortSignal | undefined

  const dispose = () => {
    runner?.dispose()
    runner = undefined
    owner = undefined
  }

  const create = (signal: AbortSignal): ScriptRunner => {
    const created = createScriptRunner({
      container,
      sandboxUrl: settings.sandboxUrl,
      timeoutMs: settings.scriptTimeout,
      allowNetwork: settings.allowScriptNetwork,
      ...(settings.pageAddress === 'hidden' ? {} : { pageAddress: () => readPageAddress(container.ownerDocument) }),
      // Only the name and the parsed JSON payload cross into the page, as event data.
      onHostEvent: (name, payload) => emit('flowchat:script-event', { name, payload }),
      onLog: (entry) =>
        emit('flowchat:log', {
          status: entry.level,
          description: entry.message,
          details: entry.details,
          source: 'widget',
          code: entry.code,
        }),
    })
    signal.addEventListener('abort', () => runner === created && dispose(), { once: true })
    return created
  }

  const run: RunScript = (script, signal) => {
    if (signal.aborted) return Promise.resolve(closed)
    if (!runner || owner !== signal) {
      dispose()
      runner = create(signal)
      owner = signal
    }
    return runner.run(script)
  }
  return { run, runner: scriptActionRunner(run), dispose }
}
