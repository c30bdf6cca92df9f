import { z } from 'zod/mini'
import { EVENT_NAME_PATTERN, MAX_EVENT_PAYLOAD_CHARS, MAX_FAILURE_MESSAGE_CHARS, MESSAGE_PREFIX, RUN_ID_PATTERN } from './limits'

/**
 * The messages between the widget and the sandbox frame. Values cross as JSON text, so what a
 * script produces is plain data by the time the page sees it (no functions, getters or class
 * instances), and its size is known before it is parsed.
 */

const runId = z.string().check(z.regex(RUN_ID_PATTERN))

const readyMessageSchema = z.object({
  type: z.literal(`${MESSAGE_PREFIX}ready`),
  version: z.number(),
})

const eventMessageSchema = z.object({
  type: z.literal(`${MESSAGE_PREFIX}event`),
  runId,
  name: z.string().check(z.regex(EVENT_NAME_PATTERN)),
  payload: z.string().check(z.maxLength(MAX_EVENT_PAYLOAD_CHARS)),
})

const resultMessageSchema = z.object({
  type: z.literal(`${MESSAGE_PREFIX}result`),
  runId,
  status: z.enum(['ok', 'error', 'too_large', 'unavailable']),
  /** The result as JSON; absent when the script returned nothing (or something JSON cannot hold). */
  value: z.optional(z.string()),
  message: z.optional(z.string().check(z.maxLength(MAX_FAILURE_MESSAGE_CHARS))),
})

export const frameMessageSchema = z.discriminatedUnion('type', [
  readyMessageSchema,
  eventMessageSchema,
  resultMessageSchema,
])

export type FrameMessage = z.infer<typeof frameMessageSchema>
export type ResultMessage = z.infer<typeof resultMessageSchema>

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
}

/** Whether a message claims to belong to this protocol (only those are worth a log when malformed). */
export const claimsSandboxProtocol = (data: unknown): boolean =>
  typeof data === 'object' &&
  data !== null &&
  typeof (data as { type?: unknown }).type === 'string' &&
  (data as { type: string }).type.startsWith(MESSAGE_PREFIX)

/**
 * JSON from the sandbox, parsed. `__proto__` keys are dropped: JSON.parse keeps them as plain
 * properties, but a page that merges the value into its own objects would otherwise hand the
 * script a way to change their prototypes.
 */
export function parseSandboxJson(text: string): unknown {
  return JSON.parse(text, (key, value: unknown) => (key === '__proto__' ? undefined : value))
}
