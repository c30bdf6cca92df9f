import type { Block, VariableValue } from '../../../../protocol/index'
import { type Continuation, follow } from '../../core/continuation'
import { asFields, type Fields, readArray, readBoolean, readString, toFiniteNumber } from '../../core/field-readers'
import type { ConditionScope, Step } from '../../core/step'
import { formatValue, isSet } from '../../core/variables'
import { compilePattern, testPattern } from './regex-match'

/** Operators a comparison may use; exports omit `comparisonOperator` when it is the default. */
export const COMPARISON_OPERATORS = [
  'Equal to',
  'Not equal',
  'Contains',
  'Does not contain',
  'Greater than',
  'Greater or equal to',
  'Less than',
  'Less or equal to',
  'Is set',
  'Is empty',
  'Starts with',
  'Ends with',
  'Matches regex',
  'Does not match regex',
] as const
const DEFAULT_OPERATOR = 'Equal to'

/**
 * `{logicalOperator?, comparisons[]}`: AND unless "OR". A condition without comparisons never
 * matches, so an unfinished branch in the editor does not capture every visitor.
 */
export function evaluateCondition(condition: unknown, scope: ConditionScope): boolean {
  const fields = asFields(condition)
  const comparisons = readArray(fields, 'comparisons').map(asFields)
  if (comparisons.length === 0) return false
  const check = (comparison: Fields) => evaluateComparison(comparison, scope)
  const isOr = readString(fields, 'logicalOperator')?.trim().toUpperCase() === 'OR'
  return isOr ? comparisons.some(check) : comparisons.every(check)
}

function evaluateComparison(comparison: Fields, scope: ConditionScope): boolean {
  const variableId = readString(comparison, 'variableId')
  const left = variableId === undefined ? undefined : scope.variables[variableId]
  const right = scope.substitute(readString(comparison, 'value') ?? '')
  return compare(left, readString(comparison, 'comparisonOperator') ?? DEFAULT_OPERATOR, right)
}

/** Text comparisons ignore case and surrounding spaces; numbers compare as numbers. */
export function compare(left: VariableValue | undefined, operator: string, right: string): boolean {
  const target = normalize(right)
  const leftText = normalize(formatValue(left))
  switch (operator.trim()) {
    case 'Equal to':
      return equals(left, right)
    case 'Not equal':
      return !equals(left, right)
    case 'Contains':
      return contains(left, target)
    case 'Does not contain':
      return !contains(left, target)
    case 'Greater than':
      return order(left, right) > 0
    case 'Greater or equal to':
      return order(left, right) >= 0
    case 'Less than':
      return order(left, right) < 0
    case 'Less or equal to':
      return order(left, right) <= 0
    case 'Is set':
      return isSet(left)
    case 'Is empty':
      return !isSet(left)
    case 'Starts with':
      return isSet(left) && leftText.startsWith(target)
    case 'Ends with':
      return isSet(left) && leftText.endsWith(target)
    case 'Matches regex':
      return matchesPattern(left, right, 'some')
    case 'Does not match regex':
      return matchesPattern(left, right, 'none')
    default:
      return false
  }
}

function normalize(text: string): string {
  return text.trim().toLowerCase()
}

function equals(left: VariableValue | undefined, right: string): boolean {
  const a = toFiniteNumber(typeof left === 'number' ? left : formatValue(left))
  const b = toFiniteNumber(right)
  if (a !== undefined && b !== undefined) return a === b
  return normalize(formatValue(left)) === normalize(right)
}

/** A multiple-choice answer is a list: "Contains" looks inside each chosen item. */
function contains(left: VariableValue | undefined, target: string): boolean {
  if (!isSet(left)) return false
  if (Array.isArray(left)) return left.some((item) => normalize(item).includes(target))
  return normalize(formatValue(left)).includes(target)
}

/**
 * A list matches when one of its items does, and "does not match" when none does. The pattern is
 * case-sensitive unless written `/…/i`; an empty, unset or invalid side makes both false.
 */
function matchesPattern(left: VariableValue | undefined, source: string, mode: 'some' | 'none'): boolean {
  if (!isSet(left)) return false
  const pattern = compilePattern(source.trim())
  if (!pattern) return false
  const items = Array.isArray(left) ? left : [formatValue(left)]
  const found = items.some((item) => testPattern(pattern, item))
  return mode === 'some' ? found : !found
}

/** Sign of left − right: numeric when both are numbers, else text order; NaN when unset. */
function order(left: VariableValue | undefined, right: string): number {
  if (!isSet(left) || right.trim() === '') return Number.NaN
  const a = toFiniteNumber(typeof left === 'number' ? left : formatValue(left))
  const b = toFiniteNumber(right)
  if (a !== undefined && b !== undefined) return a - b
  return normalize(formatValue(left)).localeCompare(normalize(right))
}

/**
 * `Condition`: the first item whose content matches, in order, leads on; none matching, the
 * block's own edge does.
 */
export function runCondition(block: Block, step: Step): Continuation {
  const matched = (block.items ?? []).find((item) => evaluateCondition(item.content, step.conditionScope))
  if (!matched) return follow(block.outgoingEdgeId)
  // A matching branch without a link ends that path, as builders run it.
  return matched.outgoingEdgeId ? follow(matched.outgoingEdgeId) : { kind: 'end' }
}

/** Choice items may carry `displayCondition {isEnabled, condition}`: shown only when it holds. */
export function isItemVisible(item: Fields, scope: ConditionScope): boolean {
  const display = asFields(item.displayCondition)
  if (readBoolean(display, 'isEnabled') !== true) return true
  return evaluateCondition(display.condition, scope)
}
