import type { Block, ChatInput, ChatMessage } from '../../../../protocol/index'
import { type Continuation, follow, type WalkResult } from '../../core/continuation'
import { asFields, type Fields, readString } from '../../core/field-readers'
import type { BlockLocation } from '../../core/flow-index'
import type { Step } from '../../core/step'
import type { Awaiting } from '../../core/types'
import { formatValue, isSet } from '../../core/variables'
import { cardView, renderCards } from './cards'
import { renderItems } from './choice-items'
import { numberOption } from './input-answer'
import { paymentView } from './payment'

const NUMERIC_OPTIONS = ['min', 'max', 'step', 'length', 'startsAt'] as const
/** Options that name things rather than show text: never substituted. */
const RAW_OPTIONS = new Set(['variableId'])

/** An input block: the walk waits for the visitor's answer to it. */
export function runInput(location: BlockLocation, step: Step): Continuation {
  const { block, group } = location
  const input = buildInputView(block, step)
  if (input.items && input.items.length === 0) {
    // Nothing to pick would leave the visitor stuck: the flow goes on as if it were skipped.
    step.skip(block, 'warning', 'Choice skipped: it has no items to show')
    return follow(block.outgoingEdgeId)
  }
  return { kind: 'wait', awaiting: { kind: 'input', groupId: group.id, blockId: block.id }, input }
}

/** An invalid answer: the retry message, and the same input again. */
export function askAgain(step: Step, location: BlockLocation, awaiting: Awaiting, retryMessage: string): WalkResult {
  step.addMessage(retryBubble(location.block.id, retryMessage))
  return { awaiting, input: buildInputView(location.block, step) }
}

function retryBubble(blockId: string, text: string): ChatMessage {
  return {
    id: `${blockId}-retry`,
    type: 'text',
    content: { richText: [{ type: 'p', children: [{ text }] }], plainText: text },
  }
}

/** The `input` of a response: the block as the widget needs it, every shown text filled in. */
export function buildInputView(block: Block, step: Step): ChatInput {
  const options = buildOptions(asFields(block.options), step)
  const view: ChatInput = { id: block.id, type: block.type, options }
  if (block.outgoingEdgeId) view.outgoingEdgeId = block.outgoingEdgeId
  if (block.type === 'choice input' || block.type === 'picture choice input') {
    view.items = renderItems(block, step)
  }
  if (block.type === 'cards') {
    view.items = renderCards(block, step).map(cardView)
    delete options.saveResponseMapping
  }
  if (block.type === 'payment input') return paymentView(view, step)
  const prefilled = prefilledValue(options, step)
  if (prefilled !== undefined) view.prefilledValue = prefilled
  return view
}

function buildOptions(raw: Fields, step: Step): Fields {
  const options: Fields = {}
  for (const [key, value] of Object.entries(raw)) {
    if (value === null || value === undefined) continue
    options[key] = typeof value === 'string' && !RAW_OPTIONS.has(key) ? step.substitute(value) : value
  }
  const labels = asFields(raw.labels)
  if (raw.labels !== undefined && raw.labels !== null) {
    // Texts, and one level of texts by case (a file input's `success.single` and `.multiple`).
    const texts = (fields: Fields) =>
      Object.fromEntries(
        Object.entries(fields)
          .filter(([, text]) => typeof text === 'string')
          .map(([key, text]) => [key, step.substitute(text as string)]),
      )
    const success = labels.success
    const byCase = success && typeof success === 'object' && !Array.isArray(success) ? { success: texts(asFields(success)) } : {}
    options.labels = { ...texts(labels), ...byCase }
  }
  for (const key of NUMERIC_OPTIONS) {
    if (!(key in raw)) continue
    const value = numberOption(raw, key, step)
    if (value === undefined) delete options[key]
    else options[key] = value
  }
  return options
}

/**
 * The current value of the input's variable, so a returning or prefilled visitor sees what they
 * gave before. Sent unless the flow turned input prefill off explicitly.
 */
function prefilledValue(options: Fields, step: Step): string | undefined {
  if (step.index.flow.settings?.general?.isInputPrefillEnabled === false) return undefined
  const variableId = readString(options, 'variableId')
  if (variableId === undefined) return undefined
  const value = step.variables[variableId]
  return isSet(value) ? formatValue(value) : undefined
}
