import type { RichInputProps } from './input-views'
import { TextInput, type TextField } from './text-input'

/** The fields of number, e-mail, URL and phone inputs: the keyboard a phone shows, and autofill. */
export const TYPED_FIELDS: ReadonlyMap<string, TextField> = new Map<string, TextField>([
  ['number input', { type: 'number', placeholder: 'Type a number…', inputMode: 'decimal' }],
  ['email input', { type: 'email', placeholder: 'Type your email…', inputMode: 'email', autocomplete: 'email' }],
  ['url input', { type: 'url', placeholder: 'Type a URL…', inputMode: 'url', autocomplete: 'url' }],
  ['phone number input', { type: 'tel', placeholder: 'Type your phone number…', inputMode: 'tel', autocomplete: 'tel' }],
])

const numberAttr = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined)

/**
 * A number, e-mail, URL or phone input: the core's text field, typed. Part of the rich inputs
 * chunk, requested when a flow announces one; if it cannot load, a plain text field stands in.
 */
export function TypedTextInput({ widget, input, draft }: RichInputProps) {
  const field = TYPED_FIELDS.get(input.type)
  if (!field) return null
  const options = input.options ?? {}
  const range = input.type === 'number input' ? { min: numberAttr(options.min), max: numberAttr(options.max), step: numberAttr(options.step) ?? 'any' } : undefined
  return <TextInput widget={widget} input={input} draft={draft} field={{ ...field, attributes: range }} />
}
