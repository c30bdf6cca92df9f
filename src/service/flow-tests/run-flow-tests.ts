import type { FlowTestFailure, FlowTests, Scenario, ScenarioResult } from '../../protocol/flow-tests'
import type { PublishedFlow } from '../../protocol/index'
import { EngineError } from '../engine/core/engine-error'
import type { LinkedFlowLoader, SnapshotAnswer } from '../engine/core/ports'
import { createStepContext } from '../engine/core/step-context'
import type { Engine, StepOutcome } from '../engine/core/types'
import type { SandboxPool } from '../engine/sandbox/sandbox-pool'
import { newId } from '../ids'
import type { Store } from '../store/store'
import { checkStep, messageText } from './expectations'
import { createStubPorts, type StubPorts } from './stub-ports'
import { type StubServer, startStubServer } from './stub-server'

/**
 * Runs a flow's test scenarios, one after another, each a conversation of its own played by the
 * engine in this process (no session, no result, nothing written): the same engine and the same
 * ports as a visitor's conversation, the ports pointed at a loopback stub server started for the
 * run and closed after it. Shared by the command line (`flow-service test`) and the API
 * (`POST /v1/flows/{id}/test`).
 */

export interface FlowTestRun {
  engine: Engine
  /** What the run may read: the workspace's published flows a `Typebot link` enters. */
  store: Pick<Store, 'credentials'>
  flows?: LinkedFlowLoader
  workspaceId: string
  flowId: string
  sandbox?: SandboxPool
  now?: () => Date
  /** When the whole run must be over (ms since the epoch); the scenarios not over by then fail. */
  deadline?: number
}

/** Longest message text a result repeats (the transcript is there to read, not to archive). */
const MAX_SHOWN_TEXT = 500

export async function runFlowTests(flow: PublishedFlow, tests: FlowTests, run: FlowTestRun): Promise<ScenarioResult[]> {
  const stubs = await startStubServer()
  const ports = createStubPorts(stubs, run.store)
  try {
    const results: ScenarioResult[] = []
    for (const scenario of tests.scenarios) results.push(await runScenario(flow, scenario, run, stubs, ports))
    return results
  } finally {
    await ports.close()
    await stubs.close()
  }
}

async function runScenario(flow: PublishedFlow, scenario: Scenario, run: FlowTestRun, stubs: StubServer, ports: StubPorts) {
  const started = performance.now()
  stubs.use(scenario.stubs ?? {})
  ports.reset()
  const failures: FlowTestFailure[] = []
  const transcript: ScenarioResult['transcript'] = []
  const answers: SnapshotAnswer[] = []
  const said: string[] = []
  const ids = { workspaceId: run.workspaceId, flowId: run.flowId, sessionId: newId(), resultId: newId() }
  // A context per step, as the service makes one per request: a step's call count is its own.
  const context = () =>
    createStepContext({
      ...ids,
      now: run.now,
      sandbox: run.sandbox,
      report: () => undefined,
      ...(run.flows ? { flows: run.flows } : {}),
      http: ports.http(run.workspaceId),
      ai: ports.ai(run.workspaceId),
      mail: ports.mail,
      resultAnswers: async () => answers.slice(),
    })
  const result = (): ScenarioResult => ({
    name: scenario.name,
    passed: failures.length === 0,
    failures,
    transcript,
    durationMs: Math.round(performance.now() - started),
  })

  /** One step: the engine's outcome, what went unanswered, and what the author expects of it. */
  const step = async (name: string, answer: string | undefined, play: () => Promise<StepOutcome>, expected: Scenario['start']) => {
    if (run.deadline !== undefined && Date.now() > run.deadline) {
      failures.push({ step: name, expected: 'the run to finish within its time limit', seen: 'the time limit was reached here' })
      return undefined
    }
    let outcome: StepOutcome
    try {
      outcome = await play()
    } catch (error) {
      if (!(error instanceof EngineError)) throw error
      failures.push({ step: name, expected: 'the flow to take the answer', seen: `the flow refused it (${error.code}): ${error.message}` })
      return undefined
    }
    answers.push(...outcome.answers)
    const messages = (outcome.response.messages ?? []).map(messageText)
    said.push(...messages)
    transcript.push({ step: name, ...(answer === undefined ? {} : { answer: shortened(answer) }), messages: messages.map(shortened) })
    for (const problem of stubs.takeProblems()) failures.push({ step: name, expected: 'every call answered by a stub', seen: problem })
    failures.push(...checkStep(name, expected, { flow, state: outcome.state, messages, emails: ports.emails }))
    return outcome
  }

  let outcome = await step(
    'start',
    undefined,
    () => run.engine.start(flow, { prefilledVariables: scenario.variables }, context()),
    scenario.start,
  )
  if (!outcome) return result()
  let endingExpected = scenario.start?.ending !== undefined
  for (const [index, written] of (scenario.answers ?? []).entries()) {
    const { answer, expect } = typeof written === 'string' ? { answer: written, expect: undefined } : written
    const name = `answer ${index + 1}`
    const state = outcome.state
    if (state.awaiting === null) {
      failures.push({
        step: name,
        expected: `the flow to wait for the answer ${JSON.stringify(answer)}`,
        seen: 'the conversation had finished',
      })
      return result()
    }
    outcome = await step(name, answer, () => run.engine.continue(flow, state, answer, context()), expect)
    if (!outcome) return result()
    endingExpected ||= expect?.ending !== undefined
  }
  const end = scenario.expect ?? {}
  // Unless a step says how it ends, a scenario plays the flow to its end.
  const ending = end.ending ?? (endingExpected ? undefined : 'finished')
  // At the end, `messages` are looked for in the whole conversation.
  failures.push(...checkStep('end', { ...end, ending }, { flow, state: outcome.state, messages: said, emails: ports.emails }))
  return result()
}

const shortened = (text: string) => (text.length > MAX_SHOWN_TEXT ? `${text.slice(0, MAX_SHOWN_TEXT)}…` : text)

/** What the command line prints for a failure: one line, the step first. */
export const failureLine = (failure: FlowTestFailure) => `${failure.step}: expected ${failure.expected}; seen ${failure.seen}`
