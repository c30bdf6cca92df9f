/** Decides whether `value` is a valid value for CSS `property` (the browser's own parser in production). */
export type CssValidator = (property: string, value: string) => boolean

const MAX_VALUE_LENGTH = 300

/**
 * Characters no theme value we accept ever needs. Rejecting them first means a value can never
 * close its declaration or rule, open a comment or smuggle markup, whatever the parser below says
 * (some environments, like test DOMs, answer `true` to anything).
 */
const FORBIDDEN = /[;{}<>\\]|\/\*|\*\//

export const browserCssValidator: CssValidator = (property, value) => {
  const css = (globalThis as { CSS?: { supports?: (p: string, v: string) => boolean } }).CSS
  return typeof css?.supports === 'function' ? css.supports(property, value) : true
}

/** The trimmed value when it is safe and valid for `property`, else undefined. */
export function cssValue(value: unknown, property: string, isValid: CssValidator): string | undefined {
  if (typeof value !== 'string') return undefined
  const trimmed = value.trim()
  if (!trimmed || trimmed.length > MAX_VALUE_LENGTH || FORBIDDEN.test(trimmed)) return undefined
  return isValid(property, trimmed) ? trimmed : undefined
}

/** A finite number clamped to [min, max], else undefined. */
export function clampNumber(value: unknown, min: number, max: number): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : undefined
}

/** `color` made `opacity` (0–1) opaque, via color-mix so any CSS color works. */
export function withOpacity(color: string, opacity: number | undefined, isValid: CssValidator): string {
  if (opacity === undefined || opacity >= 1) return color
  const mixed = `color-mix(in srgb, ${color} ${Math.round(opacity * 1000) / 10}%, transparent)`
  return isValid('color', mixed) ? mixed : color
}

const LENGTH = /^\d{1,4}(\.\d+)?(px|rem|em|vh|vw|dvh|%)?$/
const INTEGER = /^-?\d{1,10}$/

/**
 * A value an element attribute gives for a custom property (a launcher's size, offset, stacking
 * order, colours): only a length (a bare number is pixels), an integer or a colour reaches the
 * style, whatever the attribute says.
 */
export function attributeCssValue(
  kind: 'length' | 'integer' | 'colour',
  raw: string | null,
  isValid: CssValidator = browserCssValidator,
): string | undefined {
  const value = raw?.trim() ?? ''
  if (kind === 'colour') return cssValue(value, 'color', isValid)
  if (kind === 'integer') return INTEGER.test(value) ? value : undefined
  if (!LENGTH.test(value)) return undefined
  return /\d$/.test(value) ? `${value}px` : value
}
