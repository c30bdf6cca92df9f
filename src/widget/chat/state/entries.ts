import { type ReadonlySignal, type Signal, signal } from '@preact/signals-core'
import type { Agent } from '../../../protocol/handoff'
import type { ChatMessage } from '../../../protocol/index'
import type { Words } from '../../i18n/strings'

/**
 * An AI answer streaming into a host bubble. Its text arrives in pieces that views append as
 * they come (`listen`), so a long answer costs the same per piece as a short one.
 * - `streaming`: on its way (no text yet: the typing dots);
 * - `done`: complete, recorded by the service; the entry's message now holds the whole text;
 * - `failed`: interrupted; what arrived stays, `error` says why and, when `retryable`, `retry()`
 *   asks the service again.
 */
export interface StreamedAnswer {
  readonly status: ReadonlySignal<'streaming' | 'done' | 'failed'>
  readonly error: ReadonlySignal<{ words: Words; retryable: boolean } | null>
  /** The text so far. */
  readonly text: string
  /** Hears every change: a piece appended, or (`reset`) the whole text replaced. Returns the unsubscribe. */
  listen(listener: (text: string, reset: boolean) => void): () => void
  retry(): void
}

/** A message from the flow, immutable once shown (a streamed answer's is set once, when complete). */
export interface HostEntry {
  kind: 'host'
  /** Unique in the transcript (a loop can show the same block, hence the same message id, twice). */
  key: string
  message: ChatMessage
  /** Avatar from `dynamicTheme` when the message was shown; otherwise the theme's. */
  avatarUrl: string | undefined
  /** Shown again from a remembered conversation: already read out on the earlier page. */
  restored?: true
  /** When it was shown (ms since the epoch), for the transcript; none when restored from an older record. */
  at?: number
  /** Set while and after an AI answer streams into this bubble. */
  stream?: StreamedAnswer
}

/**
 * - `sending`: on its way (including automatic retries);
 * - `waiting`: the browser is offline: kept, and sent (once) when the network is back;
 * - `sent`: the service accepted it;
 * - `failed`: retries spent; the visitor can retry (same idempotency key);
 * - `rejected`: the service refused it (4xx); `error` says why and the input comes back.
 */
export type ReplyStatus = 'sending' | 'waiting' | 'sent' | 'failed' | 'rejected'

/** The visitor's answer: its own signals, so a status change re-renders only this bubble. */
export interface GuestEntry {
  kind: 'guest'
  key: string
  text: Signal<string>
  status: Signal<ReplyStatus>
  /** Why it was not sent or was refused. */
  error: Signal<Words | null>
  avatarUrl: string | undefined
  /** When the visitor gave it (ms since the epoch), for the transcript. */
  at?: number
  /** A message to a person of the owner's team (a handoff), not an answer to the flow. */
  live?: LiveMessage
}

/**
 * Where a visitor's message to a person stands: `key` sends it once however often it is sent
 * again (a retry, a reload), `seq` is its place in the handoff's events once the service stored it.
 */
export interface LiveMessage {
  handoffId: string
  key: string
  seq?: number
}

/**
 * A line from the handoff's live part that is not the visitor's: a person's message (`agent`, with
 * their name and avatar as they were then) or the service's own (`system`: "Ada joined"). `seq`
 * is its place in the handoff's events, so none is shown twice.
 */
export interface AgentEntry {
  kind: 'agent'
  key: string
  handoffId: string
  seq: number
  author: 'agent' | 'system'
  text: string
  agent?: Agent | undefined
  /** When the service stored it (ms since the epoch), for the transcript. */
  at?: number
  /** Shown again from a remembered conversation: already read out on the earlier page. */
  restored?: true
}

export type Entry = HostEntry | GuestEntry | AgentEntry

let counter = 0
const nextKey = () => `e${++counter}`

export const hostEntry = (message: ChatMessage, avatarUrl: string | undefined, restored = false, stream?: StreamedAnswer): HostEntry => ({
  kind: 'host',
  key: nextKey(),
  message,
  avatarUrl,
  at: Date.now(),
  ...(restored && { restored: true }),
  ...(stream && { stream }),
})

export const guestEntry = (text: string, avatarUrl: string | undefined): GuestEntry => ({
  kind: 'guest',
  key: nextKey(),
  text: signal(text),
  status: signal<ReplyStatus>('sending'),
  error: signal<Words | null>(null),
  avatarUrl,
  at: Date.now(),
})
