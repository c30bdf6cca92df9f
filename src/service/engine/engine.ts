import type { ChatMessage, ChatStepResult, PublishedFlow } from '../../protocol/index'
import { ByteBudgetExceeded } from './byte-budget'
import { edgeTarget, type FlowIndex, indexFlow } from './flow-index'
import { acceptAnswer } from './input-answer'
import { buildInputView } from './input-view'
import { estimateProgress } from './progress'
import { Step, type StepLimits } from './step'
import type { Answer, Engine, SessionState, StartOptions, StepOptions, StepOutcome } from './types'
import { SessionEndedError } from './types'
import { initialVariables, variableMap } from './variables'
import { leave, type WalkResult, walk } from './walker'

/** Runs published flows. Holds no session data: every call gets and returns the whole state. */
export function createFlowEngine(limits: StepLimits): Engine {
  const engine: Engine = {
    async start(flow: PublishedFlow, options?: StartOptions): Promise<StepOutcome> {
      const index = indexFlow(flow)
      const step = new Step(index, initialVariables(index, options), limits, options?.context)
      const first = index.startEdgeId ? edgeTarget(index, index.startEdgeId) : undefined
      if (!first) step.log('warning', 'The flow has no start: there is nothing to show')
      return finish(step, await walk(step, first), 0)
    },

    async continue(flow: PublishedFlow, state: SessionState, message: string, options?: StepOptions): Promise<StepOutcome> {
      const awaiting = state.awaiting
      if (!awaiting) throw new SessionEndedError()
      const index = indexFlow(flow)
      const step = new Step(index, variableMap(state.variables), limits, options?.context)
      const location = index.blocks.get(awaiting.blockId)
      if (!location || location.group.id !== awaiting.groupId) {
        // The session points into a version of the flow this one no longer contains.
        step.log('error', 'The conversation cannot continue: this part of the flow no longer exists', {
          blockId: awaiting.blockId,
        })
        return finish(step, { awaiting: null }, state.visitedBlockCount)
      }
      if (awaiting.kind === 'clientReply') {
        if (awaiting.variableId && index.variablesById.has(awaiting.variableId)) {
          step.variables[awaiting.variableId] = message === '' ? null : message
        }
        const next = leave(location, location.block.outgoingEdgeId ?? undefined, step)
        return finish(step, await walk(step, next), state.visitedBlockCount)
      }
      const outcome = acceptAnswer(location.block, message, step)
      if (!outcome.ok) {
        step.addMessage(retryBubble(location.block.id, outcome.retryMessage))
        const input = buildInputView(location.block, step)
        return finish(step, { awaiting, input }, state.visitedBlockCount)
      }
      const variableId = inputVariableId(index, location.block.options)
      if (variableId) step.variables[variableId] = outcome.stored
      const answer: Answer = {
        blockId: location.block.id,
        groupId: location.group.id,
        ...(variableId ? { variableId } : {}),
        value: outcome.answer,
      }
      step.answers.push(answer)
      const display = outcome.display !== message.trim() ? outcome.display : undefined
      const next = leave(location, outcome.edgeId, step)
      return finish(step, await walk(step, next), state.visitedBlockCount, step.answers, display)
    },
  }
  return {
    start: (flow, options) => withinBudget(() => engine.start(flow, options), 0),
    continue: (flow, state, message, options) =>
      withinBudget(() => engine.continue(flow, state, message, options), state.visitedBlockCount),
  }
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
    step.context.report(`a step went over its ${error.budget} budget of ${error.limitBytes} bytes (${variable}); the conversation was ended`)
    return finish(step, { awaiting: null }, visitedBefore, step.answers)
  }
}

function inputVariableId(index: FlowIndex, options: unknown): string | undefined {
  const id = (options as { variableId?: unknown } | null | undefined)?.variableId
  return typeof id === 'string' && index.variablesById.has(id) ? id : undefined
}

function retryBubble(blockId: string, text: string): ChatMessage {
  return {
    id: `${blockId}-retry`,
    type: 'text',
    content: { richText: [{ type: 'p', children: [{ text }] }], plainText: text },
  }
}

function finish(
  step: Step,
  result: WalkResult,
  visitedBefore: number,
  answers: Answer[] = [],
  lastMessageNewFormat?: string,
): StepOutcome {
  const ended = result.awaiting === null
  const visitedBlockCount = visitedBefore + step.executedBlocks
  // What the step stores and sends counts against its budget too (the walk already stopped if over).
  if (result.input) step.bytes.respond(result.input)
  if (!ended) step.bytes.produce(JSON.stringify(step.variables))
  const response: ChatStepResult = { messages: step.messages }
  if (lastMessageNewFormat !== undefined) response.lastMessageNewFormat = lastMessageNewFormat
  if (result.input) response.input = result.input
  if (step.actions.length > 0) response.clientSideActions = step.actions
  if (step.logs.length > 0) response.logs = step.logs
  if (step.index.progressEnabled) {
    response.progress = estimateProgress(step.index, visitedBlockCount, result.awaiting?.blockId, ended)
  }
  return {
    state: { variables: step.variables, awaiting: result.awaiting, visitedBlockCount },
    response,
    answers,
    ended,
  }
}
