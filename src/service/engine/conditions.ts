import type { VariableValue } from '../../protocol/index'
import { asFields, type Fields, readArray, readBoolean, readString, toFiniteNumber } from './field-readers'
import { formatValue, isSet, type Variables } from './variables'

/** Operators a comparison may use; exports omit `comparisonOperator` when it is the default. */
export const COMPARISON_OPERATORS = [
  'Equal to',
  'Not equal',
  'Contains',
  'Does not contain',
  'Greater than',
  'Less than',
  'Is set',
  'Is empty',
  'Starts with',
  'Ends with',
] as const
const DEFAULT_OPERATOR = 'Equal to'

export interface ConditionScope {
  variables: Variables
  /** Fills `{{Name}}` in a comparison's value. */
  substitute: (text: string) => string
}

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
    case 'Less than':
      return order(left, right) < 0
    case 'Is set':
      return isSet(left)
    case 'Is empty':
      return !isSet(left)
    case 'Starts with':
      return isSet(left) && leftText.startsWith(target)
    case 'Ends with':
      return isSet(left) && leftText.endsWith(target)
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

/** Sign of left − right: numeric when both are numbers, else text order; NaN when unset. */
function order(left: VariableValue | undefined, right: string): number {
  if (!isSet(left) || right.trim() === '') return Number.NaN
  const a = toFiniteNumber(typeof left === 'number' ? left : formatValue(left))
  const b = toFiniteNumber(right)
  if (a !== undefined && b !== undefined) return a - b
  return normalize(formatValue(left)).localeCompare(normalize(right))
}

/** First item of a Condition block whose content matches, in order. */
export function firstMatchingItem<T extends { content?: unknown }>(items: readonly T[], scope: ConditionScope): T | undefined {
  return items.find((item) => evaluateCondition(item.content, scope))
}

/** Choice items may carry `displayCondition {isEnabled, condition}`: shown only when it holds. */
export function isItemVisible(item: Fields, scope: ConditionScope): boolean {
  const display = asFields(item.displayCondition)
  if (readBoolean(display, 'isEnabled') !== true) return true
  return evaluateCondition(display.condition, scope)
}
