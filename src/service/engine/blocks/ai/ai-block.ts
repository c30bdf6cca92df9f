import { randomUUID } from 'node:crypto'
import type { Block } from '../../../../protocol/index'
import { type Continuation, follow } from '../../core/continuation'
import { asFields, readArray } from '../../core/field-readers'
import { type BlockLocation, edgeTarget, type Position } from '../../core/flow-index'
import { AI_FAILURES, type AiCallFailure, type ChatCompletion, callFailure } from '../../core/ports'
import type { Step } from '../../core/step'
import { recordBotLine } from '../../core/transcript'
import type { Awaiting } from '../../core/types'
import { type AiMapping, planAiBlock, readMappings, streamVariableId } from './ai-options'

/** The `context` of logs about a completion computed within a step (integrations.md 4.2). */
export const GENERATING_CONTEXT = 'While generating chat completion'

/**
 * `openai`, `mistral` and legacy `OpenAI` blocks, "Create chat completion". When the widget can
 * show a streamed answer and the next block is the `{{Var}}` bubble that shows it (integrations.md
 * 4.3), the step stops here with a `stream` action and the request waits in the session for
 * `streamMessage`; otherwise the answer is computed within the step. Whatever fails is logged and
 * the walk goes on.
 */
export async function runAiBlock(location: BlockLocation, step: Step): Promise<Continuation> {
  const { block, group } = location
  const next = follow(block.outgoingEdgeId)
  const plan = planAiBlock(block, step)
  if (plan.kind === 'skip') {
    step.skip(block, plan.status, plan.description)
    return next
  }
  const ai = step.context.ai
  if (!ai) {
    step.skip(block, 'warning', 'AI block skipped: this service makes no AI calls here')
    return next
  }
  try {
    await ai.check(plan.request)
  } catch (fault) {
    const error = callFailure(fault, AI_FAILURES)
    if (!error) throw fault
    const legacyWithout = plan.legacy && plan.request.credentialsId === undefined
    step.skip(
      block,
      'error',
      legacyWithout ? 'Make sure to select an OpenAI account' : `Could not find credentials for block \`${block.type}\``,
      {
        reason: error.message,
      },
    )
    return next
  }
  const bubble = step.streamEnabled ? streamingBubble(location, plan.mappings, step) : undefined
  if (bubble) {
    step.addAction({ type: 'stream', stream: true, expectsDedicatedReply: true })
    const awaiting: Awaiting = {
      kind: 'stream',
      groupId: group.id,
      blockId: block.id,
      streamId: randomUUID(),
      request: plan.request,
      bubbleBlockId: bubble.id,
    }
    return { kind: 'wait', awaiting }
  }
  if (step.outboundTimeLeftMs <= 0) {
    step.skip(block, 'error', 'AI answer not generated: this step already waited its longest on outgoing calls')
    return next
  }
  const started = Date.now()
  try {
    const completion = await ai.complete(plan.request, { timeoutMs: step.outboundTimeLeftMs })
    applyCompletion(step, plan.mappings, completion, plan.legacy)
  } catch (fault) {
    const error = callFailure(fault, AI_FAILURES)
    if (!error) throw fault
    logAiFailure(step, block, error, GENERATING_CONTEXT)
  } finally {
    step.outboundTimeLeftMs -= Date.now() - started
  }
  return next
}

/**
 * The answer streamed for a `stream` wait, as the service recorded it, mapped into the variables.
 * The walk goes on past the `{{Var}}` bubble the widget already showed while it streamed: that
 * bubble is returned (the AI block itself when the flow no longer has it).
 */
export function acceptStreamedAnswer(
  step: Step,
  location: BlockLocation,
  awaiting: Extract<Awaiting, { kind: 'stream' }>,
  completion: ChatCompletion,
): BlockLocation {
  applyCompletion(step, readMappings(location.block), completion, location.block.type === 'OpenAI')
  if (step.transcript) {
    recordBotLine(step.transcript, { id: awaiting.bubbleBlockId, type: 'text', content: { plainText: completion.text } })
  }
  return step.index.blocks.get(awaiting.bubbleBlockId) ?? location
}

/** Sets the mapped variables: the text (appended to a list for the legacy block) and token counts. */
function applyCompletion(step: Step, mappings: AiMapping[], completion: ChatCompletion, legacy: boolean): void {
  step.bytes.produce(completion.text)
  for (const { item, variableId } of mappings) {
    if (!step.index.variablesById.has(variableId)) continue
    if (item === 'Message content') {
      const current = step.variables[variableId]
      step.variables[variableId] = legacy && Array.isArray(current) ? [...current, completion.text] : completion.text
      continue
    }
    const usage = completion.usage
    if (!usage) continue
    step.variables[variableId] =
      item === 'Total tokens' ? usage.totalTokens : item === 'Prompt tokens' ? usage.promptTokens : usage.completionTokens
  }
}

/** A public entry naming what failed, and the provider's own words kept with the result only. */
export function logAiFailure(step: Step, block: Pick<Block, 'id' | 'type'>, error: AiCallFailure, context: string): void {
  // `context` also in the details: stored logs keep status, description and details only.
  const details = { blockId: block.id, type: block.type, ...(error.status === undefined ? {} : { status: error.status }), context }
  step.logs.push({ status: 'error', description: error.message, details, context })
  if (error.providerMessage) {
    step.log('error', 'The AI provider said', { ...details, message: error.providerMessage }, { sensitive: true })
  }
}

/**
 * The bubble that shows the streamed answer: the block the walk reaches next (along the block's
 * edge, else the next in its group) when it is a text whose first words are exactly `{{Var}}`,
 * `Var` being the variable the message content is mapped to.
 */
function streamingBubble(location: BlockLocation, mappings: AiMapping[], step: Step): Block | undefined {
  const variableId = streamVariableId(mappings)
  const name = variableId === undefined ? undefined : step.index.variablesById.get(variableId)?.name
  if (!name) return undefined
  const edgeId = location.block.outgoingEdgeId
  const position: Position | undefined = edgeId
    ? edgeTarget(step.index, edgeId)
    : { groupId: location.group.id, blockIndex: location.index + 1 }
  const next = position && step.index.groups.get(position.groupId)?.blocks[position.blockIndex]
  return next?.type === 'text' && firstTextLeaf(asFields(next.content).richText) === `{{${name}}}` ? next : undefined
}

/** The text of the first leaf of the first paragraph of a rich text. */
function firstTextLeaf(richText: unknown): string | undefined {
  let node: unknown = Array.isArray(richText) ? richText[0] : undefined
  for (let depth = 0; depth < 16 && node !== undefined; depth++) {
    const fields = asFields(node)
    if (typeof fields.text === 'string') return fields.text
    node = readArray(fields, 'children')[0]
  }
  return undefined
}
