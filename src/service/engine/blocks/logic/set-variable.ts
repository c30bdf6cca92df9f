import type { Block, VariableValue } from '../../../../protocol/index'
import { type Continuation, follow } from '../../core/continuation'
import { asFields, type Fields, readBoolean, readString } from '../../core/field-readers'
import type { BlockLocation } from '../../core/flow-index'
import type { Step } from '../../core/step'
import { singleVariableName, valueByName } from '../../core/variables'
import type { SandboxOutcome } from '../../sandbox/sandbox'
import { codeProgram, parameterize } from '../code-params'
import { toVariableValue } from '../code-results'
import { presetValue } from './set-variable-types'

const LITERAL_NUMBER = /^-?\d+(?:\.\d+)?$/
const LEADING_ZERO = /^0\d+$/

/**
 * `Set variable`. A preset type computes its value (set-variable-types.ts). `Custom` (or no type)
 * runs its expression as code in the sandbox, as builders do: `return` is added when missing and
 * each `{{Var}}` is passed as a value. A single `{{Var}}` copies that value unchanged; an
 * expression that does not run is its text with variables filled in (`Hello {{Name}}`), and
 * `isCode` only decides whether that failure is logged. `isExecutedOnClient` runs it in the
 * visitor's browser instead.
 */
export async function runSetVariable(location: BlockLocation, step: Step): Promise<Continuation> {
  const { block } = location
  const options = asFields(block.options)
  const next = follow(block.outgoingEdgeId)
  const variableId = readString(options, 'variableId')
  if (!variableId || !step.index.variablesById.has(variableId)) {
    step.log('warning', 'Set variable block has no variable to set', { blockId: block.id })
    return next
  }
  const type = readString(options, 'type') ?? 'Custom'
  if (type !== 'Custom') {
    const preset = presetValue(type, options, variableId, step)
    if (preset.kind === 'client') return runOnClient(location, variableId, preset.code, step)
    if (preset.kind === 'value') step.variables[variableId] = preset.value
    else step.log('info', `Set variable type ${type} is not supported`, { blockId: block.id })
    return next
  }
  const expression = readString(options, 'expressionToEvaluate') ?? ''
  if (readBoolean(options, 'isExecutedOnClient') === true) {
    return runOnClient(location, variableId, expression, step)
  }
  const value = await evaluate(block, options, expression, step)
  if (value !== undefined) step.variables[variableId] = value
  return next
}

/** The function body code runs as: an expression is returned, a body with `return` is kept. */
export function functionBody(code: string): string {
  return /\breturn\b/.test(code) ? code : `return (${code}\n)`
}

function runOnClient(location: BlockLocation, variableId: string, expression: string, step: Step): Continuation {
  const { code, args } = parameterize(expression, step.index, step.variables)
  step.addAction({
    type: 'scriptToExecute',
    scriptToExecute: { content: functionBody(code), args },
    expectsDedicatedReply: true,
  })
  return {
    kind: 'wait',
    awaiting: { kind: 'clientReply', groupId: location.group.id, blockId: location.block.id, variableId },
  }
}

/** The new value, or undefined to leave the variable as it is (the failure is logged). */
async function evaluate(block: Block, options: Fields, expression: string, step: Step): Promise<VariableValue | undefined> {
  const trimmed = expression.trim()
  if (trimmed === '') return null
  const single = singleVariableName(trimmed)
  if (single !== undefined) return valueByName(step.index, step.variables, single) ?? null
  // A number written with a leading zero is an identifier (a phone number, a code), not octal.
  if (LEADING_ZERO.test(trimmed)) return trimmed
  // Plain literals need no interpreter.
  if (LITERAL_NUMBER.test(trimmed)) return Number(trimmed)
  if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true'
  const { code, args } = parameterize(expression, step.index, step.variables)
  const outcome = await step.runCode(codeProgram(functionBody(code), args))
  if (outcome.status === 'ok') {
    const value = toVariableValue(outcome.value)
    if (value === undefined) step.log('error', 'Set variable result is too large to store', { blockId: block.id })
    return value
  }
  if (readBoolean(options, 'isCode') === true) {
    step.log('error', describeFailure(outcome, step.limits.timeoutMs), { blockId: block.id })
  }
  return step.substitute(expression)
}

export function describeFailure(outcome: Exclude<SandboxOutcome, { status: 'ok' }>, timeoutMs: number): string {
  switch (outcome.status) {
    case 'timeout':
      return `Code was stopped after ${timeoutMs} ms`
    case 'out-of-memory':
      return 'Code was stopped: it used too much memory'
    case 'not-a-value':
      return `Code returned a ${outcome.type}, which cannot be stored`
    default:
      return `Code failed: ${outcome.message.slice(0, 300)}`
  }
}
