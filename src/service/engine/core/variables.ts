import type { VariableValue } from '../../../protocol/index'
import { DECIMAL } from './field-readers'
import type { FlowIndex } from './flow-index'
import type { StartOptions } from './types'

/** Variable values by variable id, as kept in the session state. */
export type Variables = Record<string, VariableValue>

/**
 * A variables object without a prototype. Variable ids come from the flow, so `constructor`,
 * `toString` or `__proto__` are ordinary ids: on a plain object the first two would read
 * Object.prototype's members as values and the last would set the prototype instead of a value.
 */
export function variableMap(values: Readonly<Record<string, VariableValue>> = {}): Variables {
  return Object.assign(Object.create(null) as Variables, values)
}

/** `{{Name}}`: the name may not contain braces; surrounding spaces are ignored. */
const PLACEHOLDER = /\{\{([^{}]+)\}\}/g

/** How a value reads inside text: unset is empty, lists are joined with ", ". */
export function formatValue(value: VariableValue | undefined): string {
  if (value === null || value === undefined) return ''
  if (Array.isArray(value)) return value.join(', ')
  return String(value)
}

export function isSet(value: VariableValue | undefined): boolean {
  if (value === null || value === undefined) return false
  if (Array.isArray(value)) return value.length > 0
  return typeof value !== 'string' || value.trim() !== ''
}

export function variableIdByName(index: FlowIndex, name: string): string | undefined {
  return index.variablesByName.get(name.trim())?.id
}

export function valueByName(index: FlowIndex, variables: Variables, name: string): VariableValue | undefined {
  const id = variableIdByName(index, name)
  return id === undefined ? undefined : variables[id]
}

/** Fills `{{Name}}` placeholders; `encode` encodes the values for the target format. */
export type Substitute = (text: string, encode?: (value: string) => string) => string

/**
 * Replaces every `{{Name}}` with the variable's value. One pass only: a value that itself
 * contains `{{…}}` stays as it is, so a visitor's answer can never pull in other variables.
 * `encode` encodes values for the target format (HTML) without touching the template; `count`
 * sees each filled-in value before the result is built (the step's byte budget).
 */
export function substitute(
  text: string,
  index: FlowIndex,
  variables: Variables,
  encode?: (value: string) => string,
  count?: (value: string) => void,
): string {
  return replacePlaceholders(text, (name) => {
    const value = formatValue(valueByName(index, variables, name))
    const filled = encode ? encode(value) : value
    count?.(filled)
    return filled
  })
}

const SINGLE_PLACEHOLDER = /^\{\{([^{}]+)\}\}$/

/** The name when `text` is exactly one `{{Name}}` (then the value itself counts, not its text). */
export function singleVariableName(text: string): string | undefined {
  return SINGLE_PLACEHOLDER.exec(text.trim())?.[1]?.trim()
}

/** Calls `replacer` with each placeholder's trimmed name and puts its result in its place. */
export function replacePlaceholders(text: string, replacer: (name: string) => string): string {
  if (!text.includes('{{')) return text
  return text.replace(PLACEHOLDER, (_match, name: string) => replacer(name.trim()))
}

/**
 * A variable its author marked as Markdown (`isMarkdown: true`): text bubbles show its value with
 * its formatting, and no page may prefill it (prefill-policy.ts). Other values show as text.
 */
export function isMarkdownVariable(variable: unknown): boolean {
  return typeof variable === 'object' && variable !== null && (variable as { isMarkdown?: unknown }).isMarkdown === true
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ENTITIES[char] ?? char)
}
const HTML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/**
 * The value code sees for a variable: answers are stored as text, but flow builders treat a
 * numeric answer as a number in code (`{{Lead Score}} + 10` adds, it does not concatenate).
 */
export function valueForCode(value: VariableValue | undefined): string | number | boolean | null | string[] {
  if (value === undefined || value === null) return null
  if (typeof value === 'string' && DECIMAL.test(value.trim())) {
    const n = Number(value.trim())
    if (Number.isFinite(n)) return n
  }
  return value
}

/** Flow defaults, then a resumed result's values, then prefilled values (by name) on top. */
export function initialVariables(index: FlowIndex, options: StartOptions = {}): Variables {
  const variables = variableMap()
  for (const variable of index.variablesById.values()) {
    if (variable.value !== undefined && variable.value !== null) variables[variable.id] = variable.value
  }
  for (const [id, value] of Object.entries(options.restoredVariables ?? {})) {
    if (index.variablesById.has(id) && isVariableValue(value)) variables[id] = value
  }
  for (const [name, value] of Object.entries(options.prefilledVariables ?? {})) {
    const id = variableIdByName(index, name)
    if (id !== undefined && isVariableValue(value)) variables[id] = value
  }
  return variables
}

function isVariableValue(value: unknown): value is VariableValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  if (typeof value === 'number') return Number.isFinite(value)
  return Array.isArray(value) && value.every((item) => typeof item === 'string')
}
