import { acceptStreamedAnswer } from './blocks/ai/ai-block'
import { acceptHandoff } from './blocks/handoff/handoff-block'
import { acceptHttpReply } from './blocks/http-request/http-request-block'
import { acceptWebhook } from './blocks/http-request/wait-for-webhook'
import { acceptAnswer, keepAnswer } from './blocks/inputs/input-answer'
import { askAgain } from './blocks/inputs/input-view'
import { isPayment, passPayment } from './blocks/inputs/payment'
import { runBlock } from './blocks/run-block'
import { leave, type WalkResult } from './core/continuation'
import { EngineError } from './core/engine-error'
import type { BlockLocation, Position } from './core/flow-index'
import type { ChatCompletion } from './core/ports'
import type { Step } from './core/step'
import type { Awaiting, HandoffResume, WebhookDelivery } from './core/types'
import { walk } from './core/walker'
import { startCommand, startReplyEvent } from './events'

/**
 * Where the walk goes on: from the start, a command's event, or what a session waits for (a
 * visitor's text, a client action's result, an outside system's webhook, a recorded AI answer).
 * Blocks say what an answer means to them; the walk itself is started only here, with every
 * block the engine runs.
 */

const ENDED: WalkResult = { awaiting: null }

export function walkFrom(step: Step, position: Position | undefined): Promise<WalkResult> {
  return walk(step, position, runBlock)
}

/** Leaves `location` by `edgeId` (its block's own edge unless given), else for the next block. */
function walkOnAfter(step: Step, location: BlockLocation, edgeId = location.block.outgoingEdgeId ?? undefined): Promise<WalkResult> {
  return walkFrom(step, leave(location, edgeId, step))
}

/** The block the session waits on; undefined (and logged) when the flow no longer has it there. */
function waitedOn(step: Step, awaiting: Awaiting): BlockLocation | undefined {
  const location = step.index.blocks.get(awaiting.blockId)
  if (location && location.group.id === awaiting.groupId) return location
  // The session points into a version of the flow this one no longer contains.
  step.log('error', 'The conversation cannot continue: this part of the flow no longer exists', { blockId: awaiting.blockId })
  return undefined
}

/**
 * No message: only a payment input takes none (the visitor could not pay: the conversation ends
 * there); the answer goes through `answer` so the walk is the same as for a typed one.
 */
export function answerWithoutMessage(step: Step, awaiting: Awaiting): Promise<WalkResult> {
  const location = awaiting.kind === 'input' ? step.index.blocks.get(awaiting.blockId) : undefined
  if (!location || !isPayment(location)) throw new EngineError('message_required')
  return answer(step, awaiting, '')
}

/** A command: its event's path, then back to what the session waited on (events.ts). */
export function runCommand(step: Step, awaiting: Awaiting, command: string): Promise<WalkResult> {
  return walkFrom(step, startCommand(step, awaiting, command))
}

/**
 * The visitor's text for what the session waits on. When a reply event's detour came back to
 * its input, the answer it held is submitted there now.
 */
export async function answer(step: Step, awaiting: Awaiting, text: string): Promise<WalkResult> {
  const result = await submitAnswer(step, awaiting, text, true)
  const mark = step.returnMark
  if (
    result.awaiting?.kind === 'input' &&
    mark?.status === 'called' &&
    mark.autoResumeMessage !== undefined &&
    mark.blockId === result.awaiting.blockId
  ) {
    step.returnMark = undefined
    return submitAnswer(step, result.awaiting, mark.autoResumeMessage, false)
  }
  return result
}

/**
 * A client action's result, or an answer to an input, validated, stored and walked on from.
 * `withEvents` is false when a reply event's answer is replayed after its `Return` (the event
 * must not fire twice).
 */
async function submitAnswer(step: Step, awaiting: Awaiting, message: string, withEvents: boolean): Promise<WalkResult> {
  const location = waitedOn(step, awaiting)
  if (!location) return ENDED
  if (awaiting.kind === 'webhook') throw new EngineError('waiting_for_webhook')
  if (awaiting.kind === 'stream') throw new EngineError('waiting_for_stream')
  if (awaiting.kind === 'handoff') throw new EngineError('waiting_for_handoff')
  if (awaiting.kind === 'httpReply') {
    await acceptHttpReply(step, location, message)
    return walkOnAfter(step, location)
  }
  if (awaiting.kind === 'clientReply') {
    if (awaiting.variableId && step.index.variablesById.has(awaiting.variableId)) {
      step.variables[awaiting.variableId] = message === '' ? null : message
    }
    return walkOnAfter(step, location)
  }
  if (isPayment(location)) return passPayment(step, location)
  const outcome = acceptAnswer(location.block, message, step)
  const detour = withEvents ? startReplyEvent(step, location, message, outcome.ok) : undefined
  if (detour) return walkFrom(step, detour)
  if (!outcome.ok) return askAgain(step, location, awaiting, outcome.retryMessage)
  keepAnswer(step, location, message, outcome)
  return walkOnAfter(step, location, outcome.edgeId)
}

/** The webhook a `webhook` block waits for was called: its mapping runs and the walk goes on. */
export async function deliverWebhook(step: Step, awaiting: Awaiting, delivery: WebhookDelivery): Promise<WalkResult> {
  const location = waitedOn(step, awaiting)
  if (!location) return ENDED
  await acceptWebhook(step, location, delivery)
  return walkOnAfter(step, location)
}

/** The recorded answer of the AI block a `stream` wait is on: mapped, and the walk goes on. */
export async function resumeAfterStream(
  step: Step,
  awaiting: Extract<Awaiting, { kind: 'stream' }>,
  completion: ChatCompletion,
): Promise<WalkResult> {
  const location = waitedOn(step, awaiting)
  if (!location) return ENDED
  return walkOnAfter(step, acceptStreamedAnswer(step, location, awaiting, completion))
}

/** The conversation a `handoff` wait is on came back from the person: their variables, then the block's exit. */
export function resumeAfterHandoff(
  step: Step,
  awaiting: Extract<Awaiting, { kind: 'handoff' }>,
  resume: HandoffResume,
): Promise<WalkResult> {
  const location = waitedOn(step, awaiting)
  if (!location) return Promise.resolve(ENDED)
  return walkOnAfter(step, location, acceptHandoff(step, location, resume, awaiting.variables))
}
