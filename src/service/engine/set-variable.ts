import { randomUUID } from 'node:crypto'
import type { Block, VariableValue } from '../../protocol/index'
import { parameterize } from './code-params'
import { toVariableValue } from './code-results'
import { type Continuation, follow } from './continuation'
import { asFields, type Fields, readBoolean, readString } from './field-readers'
import type { BlockLocation } from './flow-index'
import type { SandboxOutcome } from './sandbox'
import type { Step } from './step'

const LITERAL_NUMBER = /^-?\d+(?:\.\d+)?$/

/**
 * `Set variable`: `expressionToEvaluate` is JavaScript when it runs as an expression
 * (`{{Lead Score}} + 10`, `42`) and plain text otherwise (`Promoter`, `Hello {{Name}}`).
 * Code runs in the sandbox, or in the visitor's browser with `isExecutedOnClient`.
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
    const value = presetValue(type)
    if (value === undefined) step.log('info', `Set variable type ${type} is not supported`, { blockId: block.id })
    else step.variables[variableId] = value
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

function presetValue(type: string): VariableValue | undefined {
  switch (type) {
    case 'Empty':
      return null
    case 'Now':
      return new Date().toISOString()
    case 'Today':
      return new Date().toISOString().slice(0, 10)
    case 'Random ID':
      return randomUUID()
    default:
      return undefined
  }
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
  // Plain literals need no interpreter.
  if (LITERAL_NUMBER.test(trimmed)) return Number(trimmed)
  if (trimmed === 'true' || trimmed === 'false') return trimmed === 'true'
  const isCode = readBoolean(options, 'isCode') === true
  const { code, args } = parameterize(expression, step.index, step.variables)
  const outcome = await step.runCode({
    body: functionBody(code),
    params: args.map((arg) => arg.id),
    args: args.map((arg) => arg.value),
  })
  const isNotCode =
    outcome.status === 'syntax-error' || outcome.status === 'reference-error' || outcome.status === 'not-a-value'
  // Text that does not run as JavaScript is the value itself, unless the author said it is code.
  if (isNotCode && !isCode) return step.substitute(expression)
  if (outcome.status === 'ok') {
    const value = toVariableValue(outcome.value)
    if (value === undefined) step.log('error', 'Set variable result is too large to store', { blockId: block.id })
    return value
  }
  step.log('error', describeFailure(outcome, step.limits.timeoutMs), { blockId: block.id })
  return undefined
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
