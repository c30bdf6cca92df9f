import type { RichInputProps } from './input-props'
import { localNumber } from './local-formats'
import { type TextField, TextInput } from './text-input'

/** The fields of number, e-mail, URL and phone inputs: the keyboard a phone shows, and autofill. */
export const TYPED_FIELDS: ReadonlyMap<string, TextField> = new Map<string, TextField>([
  ['number input', { type: 'number', placeholder: 'typeNumber', inputMode: 'decimal' }],
  ['email input', { type: 'email', placeholder: 'typeEmail', inputMode: 'email', autocomplete: 'email' }],
  ['url input', { type: 'url', placeholder: 'typeUrl', inputMode: 'url', autocomplete: 'url' }],
  ['phone number input', { type: 'tel', placeholder: 'typePhone', inputMode: 'tel', autocomplete: 'tel' }],
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
  if (input.type !== 'number input') return <TextInput widget={widget} input={input} draft={draft} field={field} />
  // The browser's number field takes the visitor's own decimal separator and gives `.` decimals,
  // which is what is sent; the guest bubble shows the number as the chat's language writes it.
  const range = { min: numberAttr(options.min), max: numberAttr(options.max), step: numberAttr(options.step) ?? 'any' }
  const label = (value: string) => (Number.isFinite(Number(value)) ? localNumber(Number(value), widget.locale.lang) : value)
  return <TextInput widget={widget} input={input} draft={draft} field={{ ...field, attributes: range, label }} />
}
