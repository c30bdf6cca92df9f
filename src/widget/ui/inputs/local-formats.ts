/**
 * How the rich inputs show values in the chat's language, while what they send stays in the
 * contract's format (ISO dates, `.` decimals, plain digits): the guest bubble reads
 * "1 mars 2026" on a French page, the service still gets `2026-03-01`.
 */

/** A number as the language writes it (`3,5` in French, `٣٫٥` in Arabic): what a guest bubble shows. */
export const localNumber = (value: number, lang: string): string => new Intl.NumberFormat(lang, { maximumFractionDigits: 20 }).format(value)

/** A date input's value (`2026-03-01`, or `2026-03-01T14:30` with a time) as a `Date` in the visitor's time zone. */
const dateOf = (value: string) => new Date(value.includes('T') ? value : `${value}T00:00`)

/** The formatter of a date input's values: the date, and the time when the input asks for one. */
const dates = (lang: string, withTime: boolean) =>
  new Intl.DateTimeFormat(lang, { dateStyle: 'long', ...(withTime && { timeStyle: 'short' }) })

/** A date (or date and time) or a range, as the language writes them; undefined when a value is not a date the browser reads. */
export function localDates(values: readonly string[], lang: string, withTime: boolean): string | undefined {
  const parsed = values.map(dateOf)
  if (parsed.some((date) => Number.isNaN(date.getTime()))) return undefined
  const format = dates(lang, withTime)
  return parsed.length === 2 ? format.formatRange(parsed[0]!, parsed[1]!) : format.format(parsed[0])
}
