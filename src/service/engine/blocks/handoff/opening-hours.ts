import { WEEKDAYS } from '../../../../protocol/handoff'
import { asFields, readArray, readString } from '../../core/field-readers'

/**
 * A `handoff` block's opening hours: whether a person may be asked at a moment, on the wall clock
 * of the block's IANA time zone (so summer time moves with the place, not with the server).
 */
export interface OpeningHours {
  timeZone: string
  hours: { days: string[]; from: number; to: number }[]
}

/** The block's `openingHours`, or undefined when it has none (always open) or they cannot be read. */
export function readOpeningHours(value: unknown): OpeningHours | undefined {
  const fields = asFields(value)
  const timeZone = readString(fields, 'timeZone')
  if (!timeZone) return undefined
  const hours = readArray(fields, 'hours').flatMap((entry) => {
    const slot = asFields(entry)
    const from = minutes(readString(slot, 'from'))
    const to = minutes(readString(slot, 'to'))
    const days = readArray(slot, 'days').filter((day): day is string => typeof day === 'string')
    return from === undefined || to === undefined ? [] : [{ days, from, to }]
  })
  return { timeZone, hours }
}

/** True when `now` falls in one of the slots; throws a RangeError for a time zone Intl does not know. */
export function isOpen(hours: OpeningHours, now: Date): boolean {
  const { day, minute } = wallClock(hours.timeZone, now)
  return hours.hours.some((slot) => {
    if (slot.from <= slot.to) return slot.days.includes(day) && minute >= slot.from && minute < slot.to
    // A slot past midnight (22:00 to 02:00) opens on its day and runs into the next one.
    const previous = WEEKDAYS[(WEEKDAYS.indexOf(day as (typeof WEEKDAYS)[number]) + 6) % 7]!
    return (slot.days.includes(day) && minute >= slot.from) || (slot.days.includes(previous) && minute < slot.to)
  })
}

const formats = new Map<string, Intl.DateTimeFormat>()

function wallClock(timeZone: string, now: Date): { day: string; minute: number } {
  let format = formats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    if (formats.size > 1_000) formats.clear()
    formats.set(timeZone, format)
  }
  const parts = Object.fromEntries(format.formatToParts(now).map((part) => [part.type, part.value]))
  return { day: String(parts.weekday).slice(0, 3).toLowerCase(), minute: Number(parts.hour) * 60 + Number(parts.minute) }
}

function minutes(text: string | undefined): number | undefined {
  const match = text === undefined ? null : /^(\d\d):(\d\d)$/.exec(text)
  if (!match) return undefined
  const value = Number(match[1]) * 60 + Number(match[2])
  return value <= 24 * 60 ? value : undefined
}
