import { argNamesProblem } from './arg-names'
import {
  EVENT_NAME_PATTERN,
  MAX_EVENT_PAYLOAD_CHARS,
  MAX_FAILURE_MESSAGE_CHARS,
  MESSAGE_PREFIX,
  RUN_ID_PATTERN,
  RUN_LIMIT_CEILINGS,
} from './limits'
import { type PageAddress, parsePageAddress } from './page-address'

/**
 * The messages between the widget and the sandbox frame, and the one check of each, shared by the
 * widget's runner and the sandbox document. Values cross as JSON text, so what a script produces
 * is plain data by the time the page sees it (no functions, getters or class instances), and its
 * size is known before it is parsed. A checked message is rebuilt field by field: nothing else a
 * sender put in it goes on.
 */

export type ResultStatus = 'ok' | 'error' | 'too_large' | 'unavailable'

export type FrameMessage =
  | { type: `${typeof MESSAGE_PREFIX}ready`; version: number }
  | { type: `${typeof MESSAGE_PREFIX}event`; runId: string; name: string; payload: string }
  | ResultMessage

export interface ResultMessage {
  type: `${typeof MESSAGE_PREFIX}result`
  runId: string
  status: ResultStatus
  /** The result as JSON; absent when the script returned nothing (or something JSON cannot hold). */
  value?: string
  message?: string
}

/** What the widget posts to the frame to start a run. */
export interface RunMessage {
  type: `${typeof MESSAGE_PREFIX}run`
  runId: string
  content: string
  /** The parameter names, in order. */
  names: string[]
  /** The argument values as a JSON array. */
  values: string
  allowNetwork: boolean
  limits: { resultChars: number; eventChars: number; events: number }
  /** The host page's address the script reads as `location`; every part empty when the site keeps it. */
  page: PageAddress
}

type Fields = Record<string, unknown>

const isFields = (data: unknown): data is Fields => typeof data === 'object' && data !== null && !Array.isArray(data)
const isRunId = (value: unknown): value is string => typeof value === 'string' && RUN_ID_PATTERN.test(value)
const isText = (value: unknown, max = Infinity): value is string => typeof value === 'string' && value.length <= max
const STATUSES: readonly unknown[] = ['ok', 'error', 'too_large', 'unavailable'] satisfies ResultStatus[]

/** A ready, event or result message from the frame, or undefined for anything else. */
export function parseFrameMessage(data: unknown): FrameMessage | undefined {
  if (!isFields(data)) return undefined
  if (data.type === `${MESSAGE_PREFIX}ready`) {
    return typeof data.version === 'number' ? { type: data.type, version: data.version } : undefined
  }
  if (!isRunId(data.runId)) return undefined
  if (data.type === `${MESSAGE_PREFIX}event`) {
    const valid = isText(data.name) && EVENT_NAME_PATTERN.test(data.name) && isText(data.payload, MAX_EVENT_PAYLOAD_CHARS)
    return valid ? { type: data.type, runId: data.runId, name: data.name as string, payload: data.payload as string } : undefined
  }
  if (data.type !== `${MESSAGE_PREFIX}result` || !STATUSES.includes(data.status)) return undefined
  if ((data.value !== undefined && !isText(data.value)) || (data.message !== undefined && !isText(data.message, MAX_FAILURE_MESSAGE_CHARS)))
    return undefined
  const result: ResultMessage = { type: data.type, runId: data.runId, status: data.status as ResultStatus }
  if (data.value !== undefined) result.value = data.value as string
  if (data.message !== undefined) result.message = data.message as string
  return result
}

/** A run message from the widget, or undefined; its limits can never lift the frame's own caps. */
export function parseRunMessage(data: unknown): RunMessage | undefined {
  if (!isFields(data) || data.type !== `${MESSAGE_PREFIX}run` || !isRunId(data.runId)) return undefined
  const { content, values, allowNetwork, names, limits } = data
  const page = parsePageAddress(data.page)
  if (!isText(content) || !isText(values) || typeof allowNetwork !== 'boolean' || !page) return undefined
  if (!Array.isArray(names) || argNamesProblem(names) !== undefined || !isFields(limits)) return undefined
  const withinCeiling = (key: keyof typeof RUN_LIMIT_CEILINGS) =>
    Number.isInteger(limits[key]) && (limits[key] as number) > 0 && (limits[key] as number) <= RUN_LIMIT_CEILINGS[key]
  if (!withinCeiling('resultChars') || !withinCeiling('eventChars') || !withinCeiling('events')) return undefined
  return {
    type: data.type,
    runId: data.runId,
    content,
    names: names as string[],
    values,
    allowNetwork,
    limits: { resultChars: limits.resultChars as number, eventChars: limits.eventChars as number, events: limits.events as number },
    page,
  }
}

/** Whether a message claims to belong to this protocol (only those are worth a log when malformed). */
export const claimsSandboxProtocol = (data: unknown): boolean =>
  isFields(data) && typeof data.type === 'string' && data.type.startsWith(MESSAGE_PREFIX)

/**
 * JSON from the sandbox, parsed. `__proto__` keys are dropped: JSON.parse keeps them as plain
 * properties, but a page that merges the value into its own objects would otherwise hand the
 * script a way to change their prototypes.
 */
export function parseSandboxJson(text: string): unknown {
  return JSON.parse(text, (key, value: unknown) => (key === '__proto__' ? undefined : value))
}
