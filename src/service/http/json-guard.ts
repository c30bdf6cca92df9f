/**
 * Checks on untrusted JSON that the schemas cannot express but the database and the runtime
 * care about: nesting depth (deep documents overflow recursive code and Postgres' jsonb parser),
 * strings Postgres cannot store (NUL characters, unpaired UTF-16 surrogates) and numbers too
 * large for a double (`1e999` parses to Infinity and would silently be stored as null).
 */

export const MAX_JSON_DEPTH = 64

/** Deepest nesting of `[` / `{` in `text`, scanning iteratively so the check itself cannot overflow. */
export function jsonDepthExceeds(text: string, maxDepth: number): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (inString) {
      if (ch === 0x5c)
        i++ // backslash: skip the escaped character
      else if (ch === 0x22) inString = false
    } else if (ch === 0x22) {
      inString = true
    } else if (ch === 0x5b || ch === 0x7b) {
      if (++depth > maxDepth) return true
    } else if (ch === 0x5d || ch === 0x7d) {
      depth--
    }
  }
  return false
}

// A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

export function hasUnstorableText(text: string): boolean {
  return UNSTORABLE.test(text)
}

export interface UnstorableValue {
  path: string
  message: string
}

/** The first value (string, key or number) that could not be stored faithfully, or undefined. */
export function findUnstorableValue(value: unknown): UnstorableValue | undefined {
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: '' }]
  while (stack.length > 0) {
    const item = stack.pop()!
    if (typeof item.value === 'string') {
      if (hasUnstorableText(item.value)) return { path: item.path, message: TEXT_MESSAGE }
    } else if (typeof item.value === 'number') {
      if (!Number.isFinite(item.value)) return { path: item.path, message: 'Number out of range' }
    } else if (Array.isArray(item.value)) {
      for (const [i, v] of item.value.entries()) stack.push({ value: v, path: join(item.path, String(i)) })
    } else if (item.value !== null && typeof item.value === 'object') {
      for (const [key, v] of Object.entries(item.value)) {
        const path = join(item.path, key)
        if (hasUnstorableText(key)) return { path, message: TEXT_MESSAGE }
        stack.push({ value: v, path })
      }
    }
  }
  return undefined
}

const TEXT_MESSAGE = 'Text must be valid Unicode without NUL characters'

const join = (base: string, key: string) => (base === '' ? key : `${base}.${key}`)
