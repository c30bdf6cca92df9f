import type { PageAddress } from './page-address'

/** A `scriptToExecute` as the sandbox runs it: `content` is the body of an async function. */
export interface ScriptToRun {
  content: string
  /** Each id becomes a parameter name of the function, called with the values in this order. */
  args: readonly { id: string; value: unknown }[]
}

export type ScriptFailureReason =
  /** The watchdog stopped the script at the time limit. */
  | 'timeout'
  /** The script threw, rejected, could not be compiled, or returned something that is not JSON. */
  | 'error'
  /** No sandbox to run it in: blocked by the page's CSP, not loading, or the runner was disposed. */
  | 'unavailable'
  /** The result is over the size limit. */
  | 'too_large'

export type ScriptOutcome = { ok: true; value: unknown } | { ok: false; reason: ScriptFailureReason; message: string }

export type SandboxLogCode =
  /** The page's Content Security Policy does not let the sandbox frame load. */
  | 'sandbox-blocked-by-csp'
  /** The sandbox document did not load or did not answer as a sandbox. */
  | 'sandbox-unavailable'
  /** A message from the sandbox frame did not match the protocol and was dropped. */
  | 'sandbox-message-rejected'
  /** A script ran out of time; its frame was removed and the next run gets a fresh one. */
  | 'sandbox-restarted'
  /** The embedder's `onHostEvent` threw. */
  | 'host-event-handler-failed'

/** Something about the sandbox itself (script outcomes are returned by `run`, not logged). */
export interface SandboxLogEntry {
  level: 'info' | 'warning' | 'error'
  code: SandboxLogCode
  message: string
  details?: Record<string, unknown>
}

export interface ScriptRunnerOptions {
  /** Where the hidden frame goes: the widget's shadow root. */
  container: ParentNode & Node
  /** The sandbox document, e.g. `https://service.example/sandbox/v1/sandbox.html`. */
  sandboxUrl: string
  /** Per-script time limit in milliseconds (default 10 000, kept within 100 … 300 000). */
  timeoutMs?: number
  /** How long the sandbox document may take to load (default 15 000 ms). */
  loadTimeoutMs?: number
  /** Lets scripts use fetch, XMLHttpRequest, WebSocket and EventSource (never with the page's credentials). */
  allowNetwork?: boolean
  /**
   * The host page's address a script reads as `location`, asked at each run; absent: every part
   * empty (the site keeps its address to itself). Never the sandbox's own address.
   */
  pageAddress?: () => PageAddress
  /** Receives each `emitHostEvent(name, payload)` of a running script, payload parsed from JSON. */
  onHostEvent?: (name: string, payload: unknown) => void
  onLog?: (entry: SandboxLogEntry) => void
}

export interface ScriptRunner {
  /** Runs one script; scripts queue and run one at a time. Never rejects. */
  run(script: ScriptToRun): Promise<ScriptOutcome>
  /** Removes the frame; queued and running scripts end as `unavailable`. */
  dispose(): void
}
