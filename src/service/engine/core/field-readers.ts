/**
 * Block `content` and `options` are loose, untrusted data (imports keep whatever a builder
 * wrote). These readers return a typed value or `undefined`, never throw.
 */
export type Fields = Record<string, unknown>

export function asFields(value: unknown): Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {}
}

export function readString(fields: Fields, key: string): string | undefined {
  const value = fields[key]
  return typeof value === 'string' ? value : undefined
}

export function readBoolean(fields: Fields, key: string): boolean | undefined {
  const value = fields[key]
  return typeof value === 'boolean' ? value : undefined
}

/** A finite number, also when exported as a numeric string ("1"). */
export function toFiniteNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  if (typeof value !== 'string') return undefined
  const trimmed = value.trim()
  if (!DECIMAL.test(trimmed)) return undefined
  const n = Number(trimmed)
  return Number.isFinite(n) ? n : undefined
}

/**
 * Plain decimal notation only: `Number()` alone would also accept "0x1f", "" and " ". Written so
 * each character has one way to match (no `\d+\.?\d*`, which backtracks quadratically on a long
 * run of digits that does not match in the end).
 */
export const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i

export function readArray(fields: Fields, key: string): unknown[] {
  const value = fields[key]
  return Array.isArray(value) ? value : []
}
