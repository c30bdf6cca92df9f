import type { ChatMessage } from '../../protocol/index'
import { leave } from './core/continuation'
import { startReplyEvent } from './core/events'
import type { FlowIndex } from './core/flow-index'
import { acceptAnswer } from './blocks/inputs/input-answer'
import { buildInputView } from './blocks/inputs/input-view'
import type { Step } from './core/step'
import { recordUserLine } from './core/transcript'
import { acceptHttpReply } from './blocks/http-request/http-request-block'
import { type Answer, type Awaiting, WaitingForStreamError, WaitingForWebhookError } from './core/types'
import { type WalkResult, walk } from './core/walker'

/**
 * The visitor's text for what the session waits on: a client action's result, or an answer to
 * an input, validated, stored and walked on from. `withEvents` is false when a reply event's
 * answer is replayed after its `Return` (the event must not fire twice).
 */
export async function submitAnswer(step: Step, awaiting: Awaiting, message: string, withEvents: boolean): Promise<WalkResult> {
  const location = step.index.blocks.get(awaiting.blockId)
  if (!location || location.group.id !== awaiting.groupId) {
    // The session points into a version of the flow this one no longer contains.
    step.log('error', 'The conversation cannot continue: this part of the flow no longer exists', {
      blockId: awaiting.blockId,
    })
    return { awaiting: null }
  }
  if (awaiting.kind === 'webhook') throw new WaitingForWebhookError()
  if (awaiting.kind === 'stream') throw new WaitingForStreamError()
  if (awaiting.kind === 'httpReply') {
    await acceptHttpReply(step, location, message)
    return walk(step, leave(location, location.block.outgoingEdgeId ?? undefined, step))
  }
  if (awaiting.kind === 'clientReply') {
    if (awaiting.variableId && step.index.variablesById.has(awaiting.variableId)) {
      step.variables[awaiting.variableId] = message === '' ? null : message
    }
    return walk(step, leave(location, location.block.outgoingEdgeId ?? undefined, step))
  }
  const outcome = acceptAnswer(location.block, message, step)
  const detour = withEvents ? startReplyEvent(step, location, message, outcome.ok) : undefined
  if (detour) return walk(step, detour)
  if (!outcome.ok) {
    step.addMessage(retryBubble(location.block.id, outcome.retryMessage))
    return { awaiting, input: buildInputView(location.block, step) }
  }
  const variableId = inputVariableId(step.index, location.block.options)
  if (variableId) step.variables[variableId] = outcome.stored
  const answer: Answer = {
    blockId: location.block.id,
    groupId: location.group.id,
    ...(variableId ? { variableId } : {}),
    value: outcome.answer,
  }
  const resultId = step.resultId
  if (resultId !== step.context.resultId && resultId !== undefined) answer.resultId = resultId
  step.answers.push(answer)
  if (step.transcript) recordUserLine(step.transcript, outcome.display)
  if (outcome.display !== message.trim()) step.lastMessageNewFormat ??= outcome.display
  return walk(step, leave(location, outcome.edgeId, step))
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
