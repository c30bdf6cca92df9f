import type { VariableValue } from '../../../protocol/index'

/** Longest text a variable may receive from code; longer results are refused, not cut. */
export const MAX_VALUE_LENGTH = 100_000

/**
 * Turns what code returned (plain JSON data from the sandbox) into a variable value:
 * numbers and booleans stay typed, lists become lists of text, objects become JSON text.
 * Undefined when the result is too large to keep in a session.
 */
export function toVariableValue(value: unknown): VariableValue | undefined {
  const converted = convert(value)
  const size = Array.isArray(converted)
    ? converted.reduce((total, item) => total + item.length, 0)
    : typeof converted === 'string'
      ? converted.length
      : 0
  return size > MAX_VALUE_LENGTH ? undefined : converted
}

function convert(value: unknown): VariableValue {
  if (value === null || value === undefined) return null
  if (typeof value === 'string' || typeof value === 'boolean') return value
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value)
  if (Array.isArray(value)) return value.map(itemText)
  return JSON.stringify(value) ?? null
}

function itemText(item: unknown): string {
  if (typeof item === 'string') return item
  if (item === null || item === undefined) return ''
  if (typeof item === 'object') return JSON.stringify(item) ?? ''
  return String(item)
}
