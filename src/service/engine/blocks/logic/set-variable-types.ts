import { randomUUID } from 'node:crypto'
import type { VariableValue } from '../../../../protocol/index'
import { asFields, type Fields, readString } from '../../core/field-readers'
import type { Step } from '../../core/step'
import { formatTranscript } from '../../core/transcript'
import { formatValue, isSet, singleVariableName, valueByName } from '../../core/variables'

/**
 * The `Set variable` types other than `Custom` (the builders' value types): each computes the
 * new value from the session, or asks for code to run in the visitor's browser.
 */
export type PresetOutcome =
  | { kind: 'value'; value: VariableValue }
  /** Code that must run where the visitor is (their clock, their time zone). */
  | { kind: 'client'; code: string }
  | { kind: 'unknown' }

const DAY_MS = 86_400_000

/** The visitor's local hour decides; the service's clock would say nothing about them. */
const MOMENT_OF_THE_DAY = "const hour = new Date().getHours()\nreturn hour < 12 ? 'morning' : hour < 18 ? 'afternoon' : 'evening'"

export function presetValue(type: string, options: Fields, variableId: string, step: Step): PresetOutcome {
  const value = (v: VariableValue): PresetOutcome => ({ kind: 'value', value: v })
  switch (type) {
    case 'Empty':
      return value(null)
    case 'Now':
      return value(dateIn(options, 0, step))
    case 'Yesterday':
      return value(dateIn(options, -DAY_MS, step))
    case 'Tomorrow':
      return value(dateIn(options, DAY_MS, step))
    case 'Today':
      return value(step.now().toISOString().slice(0, 10))
    case 'Random ID':
      return value(randomUUID())
    case 'Result ID':
    case 'User ID':
      return value(step.resultId ?? randomUUID())
    case 'Environment name':
      return value('web')
    case 'Phone number':
    case 'Contact name':
      // Known only in messaging apps; on the web there is no such contact.
      return value(null)
    case 'Moment of the day':
      return { kind: 'client', code: MOMENT_OF_THE_DAY }
    case 'Transcript':
      return value(formatTranscript(step.transcript ?? []))
    case 'Append value(s)':
      return value(appended(step.variables[variableId], readString(options, 'item') ?? '', step))
    case 'Pop':
    case 'Shift':
      return value(takeItem(type, options, variableId, step))
    case 'Map item with same index':
      return value(itemAtSameIndex(asFields(options.mapListItemParams), step))
    default:
      return { kind: 'unknown' }
  }
}

/**
 * An ISO timestamp `offsetMs` from now: UTC, or local time with its offset in `timeZone` (an
 * IANA name, variables allowed) when one is set and known.
 */
function dateIn(options: Fields, offsetMs: number, step: Step): string {
  const date = new Date(step.now().getTime() + offsetMs)
  const timeZone = step.substitute(readString(options, 'timeZone') ?? '').trim()
  if (timeZone === '') return date.toISOString()
  try {
    return zonedIso(date, timeZone)
  } catch {
    step.log('warning', `Unknown time zone "${timeZone.slice(0, 60)}"; the date is in UTC`)
    return date.toISOString()
  }
}

function zonedIso(date: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(date)
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '00'
  const local = `${part('year')}-${part('month')}-${part('day')}T${part('hour')}:${part('minute')}:${part('second')}`
  const offsetMinutes = Math.round((Date.parse(`${local}Z`) - Math.floor(date.getTime() / 1000) * 1000) / 60_000)
  const sign = offsetMinutes < 0 ? '-' : '+'
  const abs = Math.abs(offsetMinutes)
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

/** A single `{{List}}` appends each of its items; anything else appends its text. */
function appended(current: VariableValue | undefined, item: string, step: Step): string[] {
  const named = singleVariableName(item)
  const source = named === undefined ? undefined : valueByName(step.index, step.variables, named)
  const items = Array.isArray(source) ? source : [step.substitute(item)]
  if (!isSet(current) && !Array.isArray(current)) return items
  return [...asList(current), ...items]
}

/** A list as is; a single value is a list of one. */
function asList(value: VariableValue | undefined): string[] {
  if (Array.isArray(value)) return value
  return isSet(value) ? [formatValue(value)] : []
}

/** `Pop` takes the last item off the list, `Shift` the first; `saveItemInVariableId` keeps it. */
function takeItem(type: 'Pop' | 'Shift', options: Fields, variableId: string, step: Step): VariableValue {
  const list = asList(step.variables[variableId])
  const item = type === 'Pop' ? list.pop() : list.shift()
  const saveTo = readString(options, 'saveItemInVariableId')
  if (saveTo && step.index.variablesById.has(saveTo)) step.variables[saveTo] = item ?? null
  return list.length > 0 ? list : null
}

/** The item of the target list at the position the base item has in the base list. */
function itemAtSameIndex(params: Fields, step: Step): VariableValue {
  const read = (key: string) => {
    const id = readString(params, key)
    return id === undefined ? undefined : step.variables[id]
  }
  const baseList = read('baseListVariableId')
  const baseItem = read('baseItemVariableId')
  const targetList = read('targetListVariableId')
  if (!Array.isArray(baseList) || !Array.isArray(targetList) || baseItem === undefined || baseItem === null) return null
  const position = baseList.indexOf(formatValue(baseItem))
  const item = position === -1 ? undefined : targetList[position]
  return item === undefined || item === '' ? null : item
}
