import { afterEach, beforeEach, vi } from 'vitest'
import {
  createScriptRunner,
  type ScriptOutcome,
  type ScriptRunner,
  type ScriptRunnerOptions,
  type ScriptToRun,
} from '../../../src/widget/sandbox/index'
import type { RunMessage } from '../../../src/widget/sandbox/messages'
import { fakeFrameWindows, quietFrameLoading, SANDBOX_URL, useShadowContainer } from './frame-harness'

/** Shared set-up of the script runner tests; the bindings below are fresh for every test. */

export const READY = { type: 'flow-chat-sandbox:ready', version: 1 }
export const SCRIPT = { content: 'return name', args: [{ id: 'name', value: 'Ada' }] }

export let page: ReturnType<typeof useShadowContainer>
export let runner: ScriptRunner
export let events: { name: string; payload: unknown }[]
export let logs: { level: string; code: string; message: string }[]
let posted: unknown[]

export function useRunnerHarness() {
  beforeEach(() => {
    quietFrameLoading()
    ;({ posted } = fakeFrameWindows())
    page = useShadowContainer()
    events = []
    logs = []
  })
  afterEach(() => {
    runner?.dispose()
    page.remove()
    vi.useRealTimers()
    vi.restoreAllMocks()
  })
}

export function create(options: Partial<ScriptRunnerOptions> = {}) {
  runner = createScriptRunner({
    container: page.root,
    sandboxUrl: SANDBOX_URL,
    onHostEvent: (name, payload) => events.push({ name, payload }),
    onLog: ({ level, code, message }) => logs.push({ level, code, message }),
    ...options,
  })
  return runner
}

/** Lets pending promise callbacks run (the runner awaits between steps). */
export const flush = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve()
}

/** Tracks whether a run has finished yet. */
export function track(outcome: Promise<ScriptOutcome>) {
  const state: { done: boolean; outcome?: ScriptOutcome } = { done: false }
  void outcome.then((value) => Object.assign(state, { done: true, outcome: value }))
  return state
}

export const runMessages = () => posted.filter((m): m is RunMessage => (m as RunMessage).type === 'flow-chat-sandbox:run')
export const lastRun = () => runMessages().at(-1)!
export const result = (runId: string, fields: Record<string, unknown>) => ({ type: 'flow-chat-sandbox:result', runId, ...fields })
export const event = (runId: string, name: string, payload: string) => ({ type: 'flow-chat-sandbox:event', runId, name, payload })

/** Starts a run and plays the sandbox up to the moment the run message has been posted. */
export async function start(script: ScriptToRun = SCRIPT, { ready = true } = {}) {
  const outcome = runner.run(script)
  await flush()
  if (ready) page.fromFrame(READY)
  await flush()
  // Wrapped: an async function returning the promise itself would wait for it.
  return { outcome }
}
