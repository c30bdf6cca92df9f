/**
 * The script sandbox for `scriptToExecute`: flow scripts run in an opaque-origin frame's Worker,
 * isolated from the page, stopped by a watchdog, with `emitHostEvent` as their one channel out.
 * See README.md in this folder for the model.
 */

export {
  EVENT_NAME_PATTERN,
  MAX_EVENT_PAYLOAD_CHARS,
  MAX_EVENTS_PER_RUN,
  MAX_RESULT_CHARS,
} from './limits'
export { type PageAddress, readPageAddress } from './page-address'
export { scriptReply } from './reply'
export { createScriptRunner } from './script-runner'
export type {
  SandboxLogCode,
  SandboxLogEntry,
  ScriptFailureReason,
  ScriptOutcome,
  ScriptRunner,
  ScriptRunnerOptions,
  ScriptToRun,
} from './types'
