import type { ChatReplyMessage, ChatStepResult, PublishedFlow } from '../../protocol/index'
import { ByteBudgetExceeded } from './core/byte-budget'
import type { WalkResult } from './core/continuation'
import { EngineError } from './core/engine-error'
import { indexFlow, startPosition } from './core/flow-index'
import { linkedResults, restoreLinks, savedLinks } from './core/frames'
import { Step, type StepLimits } from './core/step'
import type { Engine, SessionState, StartOptions, StepContext, StepOutcome } from './core/types'
import { initialVariables, variableMap } from './core/variables'
import { dynamicTheme } from './dynamic-theme'
import { admitPrefilled } from './prefill-policy'
import { estimateProgress } from './progress'
import { answer, answerWithoutMessage, deliverWebhook, resumeAfterHandoff, resumeAfterStream, runCommand, walkFrom } from './resumption'

/** Runs published flows. Holds no session data: every call gets and returns the whole state. */
export function createFlowEngine(limits: StepLimits): Engine {
  const engine: Engine = {
    async start(flow: PublishedFlow, options?: StartOptions, context?: StepContext): Promise<StepOutcome> {
      const index = indexFlow(flow)
      const { admitted, refused } = await admitPrefilled(index, options?.prefilledVariables, context?.flows)
      const step = new Step(index, initialVariables(index, { ...options, prefilledVariables: admitted }), limits, context)
      if (Object.keys(refused).length > 0) {
        step.log('warning', PREFILL_REFUSED, { variables: Object.keys(refused), reaches: refused })
      }
      step.streamEnabled = options?.isStreamEnabled === true
      if (index.usesTranscript) step.transcript = []
      const first = startPosition(index)
      if (!first) step.log('warning', 'The flow has no start: there is nothing to show')
      const started = await walkFrom(step, first)
      return finish(step, options?.message === undefined ? started : await answerAtStart(step, started, options.message), 0)
    },

    async continue(
      flow: PublishedFlow,
      state: SessionState,
      message: ChatReplyMessage | undefined,
      context?: StepContext,
    ): Promise<StepOutcome> {
      const awaiting = state.awaiting
      if (!awaiting) throw new EngineError('session_ended')
      const { step, restored } = await resumeStep(flow, state, limits, context)
      if (!restored) return finish(step, { awaiting: null }, state.visitedBlockCount)
      const reply = message === undefined ? undefined : asReply(message)
      const result =
        reply === undefined
          ? await answerWithoutMessage(step, awaiting)
          : reply.type === 'command'
            ? await runCommand(step, awaiting, reply.command)
            : await answer(step, awaiting, reply.text)
      return finish(step, result, state.visitedBlockCount)
    },

    async deliverWebhook(flow, state, delivery, context) {
      const awaiting = state.awaiting
      if (awaiting?.kind !== 'webhook' || awaiting.waitId !== delivery.waitId) throw new EngineError('not_waiting_for_webhook')
      const { step, restored } = await resumeStep(flow, state, limits, context)
      if (!restored) return finish(step, { awaiting: null }, state.visitedBlockCount)
      return finish(step, await deliverWebhook(step, awaiting, delivery), state.visitedBlockCount)
    },

    async resumeStream(flow, state, completion, context) {
      const awaiting = state.awaiting
      if (awaiting?.kind !== 'stream') throw new EngineError('not_waiting_for_stream')
      const { step, restored } = await resumeStep(flow, state, limits, context)
      if (!restored) return finish(step, { awaiting: null }, state.visitedBlockCount)
      return finish(step, await resumeAfterStream(step, awaiting, completion), state.visitedBlockCount)
    },

    async resumeHandoff(flow, state, resume, context) {
      const awaiting = state.awaiting
      if (awaiting?.kind !== 'handoff' || awaiting.handoffId !== resume.handoffId) throw new EngineError('not_waiting_for_handoff')
      const { step, restored } = await resumeStep(flow, state, limits, context)
      if (!restored) return finish(step, { awaiting: null }, state.visitedBlockCount)
      return finish(step, await resumeAfterHandoff(step, awaiting, resume), state.visitedBlockCount)
    },
  }
  return {
    start: (flow, options, context) => withinBudget(() => engine.start(flow, options, context), 0),
    continue: (flow, state, message, context) =>
      withinBudget(() => engine.continue(flow, state, message, context), state.visitedBlockCount),
    deliverWebhook: (flow, state, delivery, context) =>
      withinBudget(() => engine.deliverWebhook(flow, state, delivery, context), state.visitedBlockCount),
    resumeStream: (flow, state, completion, context) =>
      withinBudget(() => engine.resumeStream(flow, state, completion, context), state.visitedBlockCount),
    resumeHandoff: (flow, state, resume, context) =>
      withinBudget(() => engine.resumeHandoff(flow, state, resume, context), state.visitedBlockCount),
  }
}

const PREFILL_REFUSED =
  'Prefilled variables not set: their values would decide where this flow calls, whom it mails, what it opens or what it shows as Markdown (a variable with isPrefillable: true may be prefilled)'

/** A bare string is a text answer. */
const asReply = (message: ChatReplyMessage) => (typeof message === 'string' ? { type: 'text' as const, text: message } : message)

/**
 * startChat's `message`, in the start's own step: it answers the input the walk stopped at, or runs
 * as a command; when the flow waits for nothing a visitor can answer, it is logged and left unused.
 */
function answerAtStart(step: Step, started: WalkResult, message: ChatReplyMessage): Promise<WalkResult> | WalkResult {
  const reply = asReply(message)
  const awaiting = started.awaiting
  if (awaiting && reply.type === 'command') return runCommand(step, awaiting, reply.command)
  if (awaiting?.kind === 'input' && reply.type === 'text') return answer(step, awaiting, reply.text)
  step.log('warning', 'The start message was not used: the flow does not wait for an answer at its start')
  return started
}

/** The step that goes on from a stored state; `restored` is false when its linked flows are gone. */
async function resumeStep(
  flow: PublishedFlow,
  state: SessionState,
  limits: StepLimits,
  context: StepContext | undefined,
): Promise<{ step: Step; restored: boolean }> {
  const index = indexFlow(flow)
  const step = new Step(index, variableMap(state.variables), limits, context)
  step.root.queue.push(...(state.queue ?? []))
  step.returnMark = state.returnMark
  step.streamEnabled = state.streamEnabled === true
  if (state.transcript || index.usesTranscript) step.transcript = [...(state.transcript ?? [])]
  if (!(await restoreLinks(step, state.links ?? [], flow))) {
    step.log('error', 'The conversation cannot continue: a linked flow it was in is no longer published')
    return { step, restored: false }
  }
  return { step, restored: true }
}

/**
 * A step that goes over its byte budget ends the conversation where it is: what was sent so far
 * stays, an accepted answer is kept, and the stop is logged in the response and for the operator.
 */
async function withinBudget(run: () => Promise<StepOutcome>, visitedBefore: number): Promise<StepOutcome> {
  try {
    return await run()
  } catch (error) {
    if (!(error instanceof ByteBudgetExceeded) || !(error.step instanceof Step)) throw error
    const step = error.step
    const variable = error.budget === 'step' ? 'STEP_BYTE_BUDGET' : 'RESPONSE_BYTE_BUDGET'
    step.log('error', `The flow produced more than ${error.limitBytes} bytes in one step and was stopped`)
    step.context.report(
      `a step went over its ${error.budget} budget of ${error.limitBytes} bytes (${variable}); the conversation was ended`,
    )
    return finish(step, { awaiting: null }, visitedBefore)
  }
}

function finish(step: Step, result: WalkResult, visitedBefore: number): StepOutcome {
  const ended = result.awaiting === null
  const visitedBlockCount = visitedBefore + step.executedBlocks
  // What the step stores and sends counts against its budget too (the walk already stopped if over).
  if (result.input) step.bytes.respond(result.input)
  if (!ended) step.bytes.produce(JSON.stringify(step.variables))
  const response: ChatStepResult = { messages: step.messages }
  if (step.lastMessageNewFormat !== undefined) response.lastMessageNewFormat = step.lastMessageNewFormat
  if (result.input) response.input = result.input
  if (step.actions.length > 0) response.clientSideActions = step.actions
  // Sensitive logs (what an HTTP request or an e-mail sent and got) are stored, never shown.
  const logs = step.logs.map(({ sensitive: _, ...log }) => log)
  const shown = logs.filter((_, i) => !step.logs[i]!.sensitive)
  if (shown.length > 0) response.logs = shown
  const root = step.root
  const theme = dynamicTheme(root.index, root.variables)
  if (theme) response.dynamicTheme = theme
  if (root.index.progressEnabled) {
    // Progress is measured on the session's own flow; inside a linked flow the path ahead is unknown.
    const stoppedAt = step.frames.length === 1 ? result.awaiting?.blockId : undefined
    response.progress = estimateProgress(root.index, visitedBlockCount, stoppedAt, ended)
  }
  const state: SessionState = { variables: root.variables, awaiting: result.awaiting, visitedBlockCount }
  if (!ended) {
    if (step.streamEnabled) state.streamEnabled = true
    const links = savedLinks(step)
    if (links.length > 0) state.links = links
    if (root.queue.length > 0) state.queue = root.queue
    if (step.returnMark) state.returnMark = step.returnMark
  }
  if (step.transcript && step.transcript.length > 0) state.transcript = step.transcript
  const outcome: StepOutcome = { state, response, logs, answers: step.answers, ended }
  const results = linkedResults(step, ended)
  if (results.length > 0) outcome.linkedResults = results
  return outcome
}
